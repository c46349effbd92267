/**
 * A project's setup command for new worktrees (copy `.env`, `npm install` …): run in each
 * new worktree of the project, in the task's sandbox, before its agent starts. Empty = none.
 *
 * @typedef {import("../../../protocol/index.ts").Project} Project
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { Dialog } from "../interact/Dialog.js";
import { setProjectSetup } from "../../state/projects.js";

/** @param {{project: Project, onClose: () => void}} props */
export function SetupDialog({ project, onClose }) {
  const [value, setValue] = useState(project.setupCommand ?? "");
  const [error, setError] = useState("");
  const save = async (/** @type {string} */ command) => {
    try {
      await setProjectSetup(project.id, command);
      onClose();
    } catch (e) {
      setError(String(/** @type {Error} */ (e)?.message ?? e));
    }
  };
  return html`
    <${Dialog}
      title=${t("worktree.setupTitle", { name: project.name })}
      testid="setup-dialog"
      onClose=${onClose}
      footer=${html`
        <button type="button" class="btn" onClick=${onClose}>${t("task.cancel")}</button>
        <button type="button" class="btn btn-accent" data-testid="setup-save"
          onClick=${() => save(value)}>${t("worktree.setupSave")}</button>
      `}
    >
      <p class="field-help">${t("worktree.setupHelp")}</p>
      <input
        class="input"
        data-testid="setup-command"
        value=${value}
        spellcheck="false"
        autocomplete="off"
        placeholder="cp ../.env . && npm install"
        aria-label=${t("worktree.setup")}
        onInput=${(/** @type {InputEvent} */ e) =>
          setValue(/** @type {HTMLInputElement} */ (e.target).value)}
      />
      ${error && html`<p class="field-error" role="alert">${error}</p>`}
    <//>
  `;
}
