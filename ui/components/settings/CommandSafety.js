/**
 * Settings → General → What commands can see: whether commands are sandboxed, the
 * variables withheld from them (names only; values never leave the server), the
 * allow-list, the paths hidden inside the sandbox, and the latest safety changes.
 */
import { useEffect, useState } from "preact/hooks";
import { ENV_NAME_RE, HIDDEN_PATH_RE } from "../../../protocol/index.ts";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { commandEnvAllow, hiddenPaths, setGeneral, shellSandbox } from "../../state/settings.js";
import { loadSafetyInfo, safetyInfo } from "../../state/safety.js";
import { changeText } from "../../state/safety_model.js";
import { clientText } from "../format.js";

/** @param {string} text */
const names = (text) => text.split(/[\s,]+/).filter(Boolean);
/** @param {string} text */
const lines = (text) => text.split("\n").map((l) => l.trim()).filter(Boolean);

/**
 * A list edited as text, saved on Save; invalid items are named and nothing is sent.
 * @param {{id: string, label: string, help: string, value: string[], rows?: number,
 *   parse: (text: string) => string[], bad: (item: string) => string|null,
 *   save: (items: string[]) => Promise<unknown>, join: string}} props
 */
function ListField({ id, label, help, value, rows, parse, bad, save, join }) {
  const [text, setText] = useState(value.join(join));
  const [error, setError] = useState("");
  const [saved, setSaved] = useState(false);
  useEffect(() => setText(value.join(join)), [value.join("\n")]);
  const submit = async () => {
    const items = parse(text);
    const problem = items.map(bad).find(Boolean);
    setError(problem ?? "");
    if (problem) return;
    if (!(await save(items))) setSaved(true);
  };
  const Input = rows ? "textarea" : "input";
  return html`
    <div class="field">
      <label class="field-label" for=${id}>${label}</label>
      <div class="field-row">
        <${Input}
          id=${id}
          class=${`input${error ? " input-error" : ""}`}
          data-testid=${id}
          rows=${rows}
          value=${text}
          spellcheck=${false}
          onInput=${(/** @type {Event} */ e) => {
            setText(/** @type {HTMLInputElement} */ (e.currentTarget).value);
            setSaved(false);
          }}
        />
        <button type="button" class="btn" data-testid=${`${id}-save`} onClick=${submit}>
          ${saved ? t("safety.saved") : t("safety.save")}
        </button>
      </div>
      <p class=${`field-help${error ? " field-error" : ""}`}>${error || help}</p>
    </div>
  `;
}

/** @param {number} at */
const when = (at) => new Date(at).toLocaleString([], { dateStyle: "short", timeStyle: "short" });

export function CommandSafety() {
  useEffect(() => void loadSafetyInfo(), []);
  const info = safetyInfo.value;
  const sandbox = shellSandbox.value;
  const tr = (/** @type {string} */ k) => t(/** @type {any} */ (k));
  return html`
    <fieldset class="settings-group" data-testid="command-safety">
      <legend class="settings-group-title">${t("safety.title")}</legend>
      <p class="field-help">${t("safety.intro")}</p>
      <p
        class=${`field-help${sandbox === "ok" ? "" : " field-warn"}`}
        data-testid="safety-sandbox"
      >
        ${sandbox === "ok" ? t("safety.sandboxed") : t(
          /** @type {const} */ (`safety.unsandboxed.${sandbox}`),
          { reason: info?.unsandboxedReason ?? "" },
        )}
      </p>
      <div class="field">
        <span class="field-label">${info
          ? t("safety.withheld", { n: info.withheld.length })
          : t("safety.loading")}</span>
        ${info && !info.withheld.length &&
          html`<p class="field-help">${t("safety.withheld.none")}</p>`}
        ${info && info.withheld.length > 0 &&
          html`<ul class="safety-vars" data-testid="safety-withheld">
            ${
            info.withheld.map((w) =>
              html`<li key=${w.name} title=${tr(`safety.reason.${w.reason}`)}>
                <code>${w.name}</code> <span class="safety-why">${
                tr(`safety.reason.${w.reason}`)
              }</span>
              </li>`
            )
          }
          </ul>`}
      </div>
      <${ListField}
        id="safety-allow"
        label=${t("safety.allow.label")}
        help=${t("safety.allow.help")}
        value=${commandEnvAllow.value}
        join=" "
        parse=${names}
        bad=${(/** @type {string} */ n) =>
          ENV_NAME_RE.test(n) ? null : t("safety.allow.bad", { name: n })}
        save=${(/** @type {string[]} */ v) => setGeneral({ commandEnvAllow: v })}
      />
      <${ListField}
        id="safety-hidden"
        label=${t("safety.hidden.label")}
        help=${t("safety.hidden.help")}
        value=${hiddenPaths.value}
        rows=${5}
        join=${"\n"}
        parse=${lines}
        bad=${(/** @type {string} */ p) =>
          HIDDEN_PATH_RE.test(p) ? null : t("safety.hidden.bad", { path: p })}
        save=${(/** @type {string[]} */ v) => setGeneral({ hiddenPaths: v })}
      />
      ${info && info.recent.length > 0 &&
        html`
          <div class="field" data-testid="safety-recent">
            <span class="field-label">${t("safety.recent")}</span>
            <ul class="safety-recent">
              ${info.recent.slice(-5).reverse().map((n) =>
                html`<li key=${n.id}>${
                  t("safety.recent.item", {
                    time: when(n.at),
                    by: clientText(n.by, true),
                    what: n.changes.map((c) => {
                      const { key, params } = changeText(c, tr);
                      return t(/** @type {any} */ (key), params);
                    }).join("; "),
                  })
                }</li>`
              )}
            </ul>
          </div>
        `}
    </fieldset>
  `;
}
