/**
 * The Notes page's notebook picker: the notebooks (folders), "New notebook" and "Rename"
 * (an inline name field; the server checks the name) and deleting the one shown (to the
 * trash, after a confirmation). The default notebook keeps its name and stays.
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
  renameNotebook,
  showNotebook,
} from "../../state/notes.js";
import { IconEdit, IconPlus, IconTrash, InlineConfirm } from "../settings/controls.js";

/** @param {string} name */
const label = (name) => name === DEFAULT_NOTEBOOK ? t("notes.defaultNotebook") : name;

export function NotebookBar() {
  const v = notebooksView.value;
  /** The inline name form: a new notebook, or the shown one renamed (null = closed). */
  const [form, setForm] = useState(/** @type {"add"|"rename"|null} */ (null));
  const [draft, setDraft] = useState("");
  const [confirm, setConfirm] = useState(false);
  const [err, setErr] = useState(/** @type {string|null} */ (null));
  const current = notebookName.value;
  /** @param {Event} e */
  const submit = async (e) => {
    e.preventDefault();
    const name = draft.trim();
    const problem = form === "rename" ? await renameNotebook(name) : await createNotebook(name);
    setErr(problem);
    if (!problem) {
      setForm(null);
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
        onClick=${() => {
          setForm(form === "add" ? null : "add");
          setDraft("");
        }}><${IconPlus} size=${16} /></button>
      ${current !== DEFAULT_NOTEBOOK && !confirm &&
        html`
          <button type="button" class="icon-btn" data-testid="notes-notebook-rename"
            title=${t("notes.renameNotebook")} aria-label=${t("notes.renameNotebook")}
            onClick=${() => {
              setForm(form === "rename" ? null : "rename");
              setDraft(current);
            }}><${IconEdit} size=${16} /></button>
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
    ${form &&
      html`
        <form class="notes-new-notebook" onSubmit=${submit}>
          <input class="input" data-testid="notes-notebook-name" value=${draft}
            maxlength=${NOTES_LIMITS.nameChars} placeholder=${t("notes.notebookName")}
            aria-label=${t("notes.notebookName")}
            onInput=${(/** @type {Event} */ e) =>
              setDraft(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
          <button type="submit" class="btn btn-accent" data-testid="notes-notebook-create"
            disabled=${!draft.trim()}>${form === "rename"
              ? t("notes.rename")
              : t("notes.create")}</button>
        </form>
      `}
    ${err &&
      html`<p class="field-help field-error" role="alert" data-testid="notes-bar-error">${err}</p>`}
  `;
}
