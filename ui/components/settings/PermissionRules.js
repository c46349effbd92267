/**
 * Settings → General → Rules: allow / ask / deny rules by pattern, for the task shown,
 * per project and global (`exec_command(npm test *)`, `write_file(src/**)`,
 * `webfetch(domain:…)`). Each scope is edited as a list and saved with its own Save; the
 * server refuses a line that is not a rule and says which. The task's list follows the
 * task (an "Always allow" answered meanwhile shows up), and the approval menu's "Edit
 * rules" opens Settings at it.
 *
 * @typedef {import("../../../protocol/index.ts").RulesView} RulesView
 * @typedef {import("../../../protocol/index.ts").PermissionRule} PermissionRule
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { request } from "../../state/connection.js";
import { currentId, currentTask, upsertTask } from "../../state/tasks.js";
import { rulesFocus } from "../../state/settings.js";
import { taskRuleList } from "../../state/approval_model.js";
import { parseRule } from "../../../protocol/permission_rules.ts";

/** @param {unknown} e */
const msg = (e) => e instanceof Error ? e.message : String(e);

/**
 * One scope's list of rules.
 * @param {{title: string, testid: string, rules: PermissionRule[], help?: string,
 *   save: (rules: PermissionRule[]) => Promise<void>}} props
 */
function RuleList({ title, testid, rules, help, save }) {
  const [rows, setRows] = useState(rules);
  const [status, setStatus] = useState(/** @type {{ok: boolean, text: string}|null} */ (null));
  useEffect(() => setRows(rules), [rules]);
  /** @param {number} i @param {Partial<PermissionRule>} patch */
  const edit = (i, patch) => setRows(rows.map((r, k) => k === i ? { ...r, ...patch } : r));
  const bad = rows.findIndex((r) => r.rule.trim() !== "" && !parseRule(r.rule));
  const onSave = async () => {
    try {
      await save(rows.filter((r) => r.rule.trim() !== ""));
      setStatus({ ok: true, text: t("rules.saved") });
    } catch (e) {
      setStatus({ ok: false, text: msg(e) });
    }
  };
  return html`
    <div class="rules-scope" data-testid=${testid}>
      <p class="rules-scope-title">${title}</p>
      ${help && html`<p class="field-help">${help}</p>`}
      ${rows.length === 0 && html`<p class="field-help">${t("rules.none")}</p>`}
      ${rows.map((r, i) =>
        html`
          <div class="rules-row" data-testid="rule-row">
            <input class="input rules-text" data-testid="rule-text" value=${r.rule}
              aria-label=${t("rules.rule")} placeholder="exec_command(npm test *)"
              aria-invalid=${i === bad ? "true" : undefined}
              onInput=${(/** @type {Event} */ e) =>
                edit(i, { rule: /** @type {HTMLInputElement} */ (e.currentTarget).value })} />
            <select class="input rules-policy" data-testid="rule-policy" value=${r.policy}
              aria-label=${t("rules.policy")}
              onChange=${(/** @type {Event} */ e) =>
                edit(i, {
                  policy: /** @type {PermissionRule["policy"]} */ (
                    /** @type {HTMLSelectElement} */ (e.currentTarget).value
                  ),
                })}>
              <option value="allow">${t("rules.allow")}</option>
              <option value="ask">${t("rules.ask")}</option>
              <option value="deny">${t("rules.deny")}</option>
            </select>
            <button type="button" class="btn btn-small" data-testid="rule-remove"
              aria-label=${t("rules.remove")} title=${t("rules.remove")}
              onClick=${() => setRows(rows.filter((_, k) => k !== i))}>×</button>
          </div>
        `
      )}
      ${bad >= 0 &&
        html`<p class="field-help field-error">${t("rules.invalid", { rule: rows[bad].rule })}</p>`}
      <div class="field-row">
        <button type="button" class="btn btn-small" data-testid="rule-add"
          onClick=${() => setRows([...rows, { rule: "", policy: "allow" }])}>${t(
            "rules.add",
          )}</button>
        <button type="button" class="btn btn-small" data-testid="rule-save" disabled=${bad >= 0}
          onClick=${onSave}>${t("rules.save")}</button>
        ${status &&
          html`<span class=${`field-help${
            status.ok ? "" : " field-error"
          }`} role="status">${status.text}</span>`}
      </div>
    </div>
  `;
}

/** The shown task's own rules, live: a change from elsewhere (Always allow) shows at once. */
function TaskRules() {
  const task = currentTask.value;
  const ref = useRef(/** @type {HTMLDivElement|null} */ (null));
  const json = JSON.stringify(taskRuleList(task?.settings));
  const rules = useMemo(() => /** @type {PermissionRule[]} */ (JSON.parse(json)), [json]);
  useEffect(() => {
    if (rulesFocus.value !== "task" || !ref.current) return;
    rulesFocus.value = null;
    ref.current.scrollIntoView({ block: "start" });
    /** @type {HTMLElement|null} */ (ref.current.querySelector("[data-testid=rule-add]"))?.focus({
      preventScroll: true,
    });
  }, [task?.id]);
  if (!currentId.value || !task) return null;
  const id = task.id;
  return html`
    <div ref=${ref}>
      <${RuleList} key=${id} title=${t("rules.task", { title: task.title })} testid="rules-task"
        help=${t("rules.taskHelp")} rules=${rules}
        save=${async (/** @type {PermissionRule[]} */ list) => {
          const view = await request("rules.set", { scope: "task", taskId: id, rules: list });
          // The task's update also arrives as an event; the list need not wait for it.
          const now = currentTask.value;
          if (view.task && now?.id === id) {
            upsertTask({ ...now, settings: { ...now.settings, rules: view.task.rules } });
          }
        }} />
    </div>
  `;
}

export function PermissionRules() {
  const [view, setView] = useState(/** @type {RulesView|null} */ (null));
  const [error, setError] = useState("");
  useEffect(() => {
    request("rules.get", {}).then(setView).catch((e) => setError(msg(e)));
  }, []);
  return html`
    <fieldset class="settings-group" data-testid="permission-rules"
      data-state=${view ? "ready" : "loading"}>
      <legend class="settings-group-title">${t("rules.title")}</legend>
      <p class="field-help">${t("rules.help")}</p>
      <p class="field-help rules-examples"><code>exec_command(npm test *)</code> · <code>exec_command(git push *)</code> · <code>write_file(src/**)</code> · <code>webfetch(domain:docs.deno.com)</code></p>
      ${error && html`<p class="field-help field-error">${error}</p>`}
      ${view &&
        html`
          <${TaskRules} />
          <${RuleList} title=${t("rules.global")} testid="rules-global" rules=${view.global}
            save=${async (/** @type {PermissionRule[]} */ rules) =>
              setView(await request("rules.set", { scope: "global", rules }))} />
          ${view.projects.map((p) =>
            html`
              <${RuleList} key=${p.path} title=${t("rules.project", { name: p.name })}
                testid="rules-project" rules=${p.rules}
                save=${async (/** @type {PermissionRule[]} */ rules) =>
                  setView(
                    await request("rules.set", { scope: "project", projectPath: p.path, rules }),
                  )} />
            `
          )}
        `}
    </fieldset>
  `;
}
