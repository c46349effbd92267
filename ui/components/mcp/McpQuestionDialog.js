/**
 * A question an MCP server asks while one of its tools runs (elicitation): the server's
 * message (as text) and its form — text, number, yes/no and choice fields — with Accept,
 * Decline and Cancel. Shown in the clients that have the asking task open (every
 * client when none has), desktop or phone (a bottom sheet there), with the task's title;
 * the first answer counts and closes it everywhere. The server checks the
 * values again, and its refusal is shown under the form.
 *
 * @typedef {import("../../../protocol/index.ts").McpElicitation} McpElicitation
 * @typedef {import("../../../protocol/index.ts").McpElicitField} McpElicitField
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { answerQuestion, mcpQuestions } from "../../state/mcp.js";
import { tasksById } from "../../state/tasks.js";
import { Dialog } from "../interact/Dialog.js";

/** @param {McpElicitField} f */
const initial = (f) =>
  f.default !== undefined ? f.default : f.type === "boolean" ? false : f.enum ? "" : "";

/**
 * The form's values as the server expects them: numbers as numbers, empty optional
 * fields left out.
 * @param {McpElicitField[]} fields @param {Record<string, any>} v
 */
export function contentOf(fields, v) {
  /** @type {Record<string, string|number|boolean>} */
  const out = {};
  for (const f of fields) {
    const x = v[f.name];
    if (f.type === "boolean") out[f.name] = Boolean(x);
    else if (x === "" || x === undefined || x === null) continue;
    else if (f.type === "number" || f.type === "integer") out[f.name] = Number(x);
    else out[f.name] = String(x);
  }
  return out;
}

/** @param {{f: McpElicitField, value: any, onInput: (v: any) => void}} props */
function Field({ f, value, onInput }) {
  const id = `elicit-${f.name}`;
  const label = html`<label class="field-label" for=${id}>${f.title}${
    f.required &&
    html`<span class="elicit-required" aria-hidden="true"> *</span>`
  }</label>`;
  const help = f.description && html`<p class="field-help">${f.description}</p>`;
  if (f.type === "boolean") {
    return html`
      <div class="field elicit-field" data-testid="elicit-field" data-name=${f.name}>
        <label class="elicit-check">
          <input id=${id} type="checkbox" checked=${Boolean(value)}
            onChange=${(/** @type {any} */ e) => onInput(e.currentTarget.checked)} />
          <span>${f.title}</span>
        </label>
        ${help}
      </div>
    `;
  }
  if (f.enum) {
    return html`
      <div class="field elicit-field" data-testid="elicit-field" data-name=${f.name}>
        ${label}
        <select id=${id} class="input" required=${f.required} value=${value}
          onChange=${(/** @type {any} */ e) => onInput(e.currentTarget.value)}>
          <option value="">${t("mcp.ask.choose")}</option>
          ${f.enum.map((v, i) => html`<option value=${v}>${f.enumNames?.[i] ?? v}</option>`)}
        </select>
        ${help}
      </div>
    `;
  }
  const numeric = f.type === "number" || f.type === "integer";
  const type = numeric
    ? "number"
    : f.format === "email"
    ? "email"
    : f.format === "uri"
    ? "url"
    : f.format === "date"
    ? "date"
    : "text";
  return html`
    <div class="field elicit-field" data-testid="elicit-field" data-name=${f.name}>
      ${label}
      <input id=${id} class="input" type=${type} value=${value ?? ""} required=${f.required}
        step=${f.type === "integer" ? "1" : "any"} min=${f.minimum} max=${f.maximum}
        minLength=${f.minLength} maxLength=${f.maxLength}
        onInput=${(/** @type {any} */ e) => onInput(e.currentTarget.value)} />
      ${help}
    </div>
  `;
}

/** @param {{q: McpElicitation}} props */
function QuestionForm({ q }) {
  const [values, setValues] = useState(() =>
    Object.fromEntries(q.fields.map((f) => [f.name, initial(f)]))
  );
  const [err, setErr] = useState(/** @type {string|null} */ (null));
  const [busy, setBusy] = useState(false);
  /** @param {"accept"|"decline"|"cancel"} action */
  const send = async (action) => {
    setBusy(true);
    const e = await answerQuestion(
      q.id,
      action,
      action === "accept" ? contentOf(q.fields, values) : undefined,
    );
    setBusy(false);
    setErr(e);
  };
  const formId = `elicit-form-${q.id}`;
  // Which task's run asked (the form may be shown while another task is open).
  const tasks = (q.taskIds ?? []).map((id) => tasksById.value.get(id)?.title ?? id);
  return html`
    <${Dialog}
      title=${t("mcp.ask.title", { server: q.server })}
      testid="elicit-dialog"
      onClose=${() => send("cancel")}
      footer=${html`
        <button type="button" class="btn" data-testid="elicit-cancel" disabled=${busy}
          onClick=${() => send("cancel")}>${t("mcp.ask.cancel")}</button>
        <button type="button" class="btn" data-testid="elicit-decline" disabled=${busy}
          onClick=${() => send("decline")}>${t("mcp.ask.decline")}</button>
        <button type="submit" form=${formId} class="btn btn-accent" data-testid="elicit-accept"
          disabled=${busy}>${t("mcp.ask.accept")}</button>
      `}
    >
      ${tasks.length > 0 &&
        html`<p class="field-help" data-testid="elicit-task">${
          t("mcp.ask.task", { task: tasks.join(", ") })
        }</p>`}
      <p class="elicit-message" data-testid="elicit-message">${q.message}</p>
      <form id=${formId} class="elicit-form" onSubmit=${(/** @type {Event} */ e) => {
        e.preventDefault();
        void send("accept");
      }}>
        ${q.fields.map((f) =>
          html`
            <${Field} key=${f.name} f=${f} value=${values[f.name]}
              onInput=${(/** @type {any} */ v) => setValues({ ...values, [f.name]: v })} />
          `
        )}
      </form>
      <p class="field-help">${t("mcp.ask.note")}</p>
      ${err &&
        html`<p class="field-help field-error" role="alert" data-testid="elicit-error">${err}</p>`}
    </${Dialog}>
  `;
}

/** The oldest open question, if any (the next appears once it is answered). */
export function McpQuestionLayer() {
  const q = mcpQuestions.value[0];
  return q ? html`<${QuestionForm} key=${q.id} q=${q} />` : null;
}
