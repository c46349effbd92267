/**
 * The Notes page's notebook picker: the notebooks (folders), "New notebook" (an inline
 * name field; the server checks the name) and deleting the one shown (to the trash,
 * after a confirmation).
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { DEFAULT_NOTEBOOK, NOTES_LIMITS } from "../../../protocol/index.ts";
import {
  createNotebook,
  deleteNotebook,
  notebookName,
  notebooksView,
  showNotebook,
} from "../../state/notes.js";
import { IconPlus, IconTrash, InlineConfirm } from "../settings/controls.js";

/** @param {string} name */
const label = (name) => name === DEFAULT_NOTEBOOK ? t("notes.defaultNotebook") : name;

export function NotebookBar() {
  const v = notebooksView.value;
  const [adding, setAdding] = useState(false);
  const [draft, setDraft] = useState("");
  const [confirm, setConfirm] = useState(false);
  const [err, setErr] = useState(/** @type {string|null} */ (null));
  const current = notebookName.value;
  /** @param {Event} e */
  const submit = async (e) => {
    e.preventDefault();
    const problem = await createNotebook(draft.trim());
    setErr(problem);
    if (!problem) {
      setAdding(false);
      setDraft("");
    }
  };
  return html`
    <div class="notes-bar">
      <select class="input notes-notebook" data-testid="notes-notebook"
        aria-label=${t("notes.notebook")} value=${current}
        onChange=${(/** @type {Event} */ e) =>
          void showNotebook(/** @type {HTMLSelectElement} */ (e.currentTarget).value)}>
        ${(v?.notebooks ?? []).map((b) =>
          html`<option value=${b.name}>${label(b.name)} (${b.notes})</option>`
        )}
      </select>
      <button type="button" class="icon-btn" data-testid="notes-notebook-add"
        title=${t("notes.newNotebook")} aria-label=${t("notes.newNotebook")}
        onClick=${() => setAdding(!adding)}><${IconPlus} size=${16} /></button>
      ${current !== DEFAULT_NOTEBOOK && !confirm &&
        html`
          <button type="button" class="icon-btn" data-testid="notes-notebook-delete"
            title=${t("notes.deleteNotebook")} aria-label=${t("notes.deleteNotebook")}
            onClick=${() => setConfirm(true)}><${IconTrash} size=${16} /></button>
        `}
    </div>
    ${confirm &&
      html`
        <${InlineConfirm} text=${t("notes.deleteNotebookConfirm", { name: current })}
          confirmLabel=${t("notes.delete")} testid="notes-notebook-delete-confirm"
          onCancel=${() => setConfirm(false)} onConfirm=${async () => {
            setConfirm(false);
            setErr(await deleteNotebook(current));
          }} />
      `}
    ${adding &&
      html`
        <form class="notes-new-notebook" onSubmit=${submit}>
          <input class="input" data-testid="notes-notebook-name" value=${draft}
            maxlength=${NOTES_LIMITS.nameChars} placeholder=${t("notes.notebookName")}
            aria-label=${t("notes.notebookName")}
            onInput=${(/** @type {Event} */ e) =>
              setDraft(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
          <button type="submit" class="btn btn-accent" data-testid="notes-notebook-create"
            disabled=${!draft.trim()}>${t("notes.create")}</button>
        </form>
      `}
    ${err &&
      html`<p class="field-help field-error" role="alert" data-testid="notes-bar-error">${err}</p>`}
  `;
}
