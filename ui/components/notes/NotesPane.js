/**
 * Settings → Notes: notebooks are folders and notes are `.md` files under
 * `<data dir>/notebooks/` — the notebook picker, the note cards, and the editor. On a
 * phone one column shows at a time: the list, or the open note (with Back).
 */
import { useEffect } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import {
  closeNote,
  flushSave,
  loadNotebooks,
  notebooksView,
  openNote,
  organising,
} from "../../state/notes.js";
import { NotebookBar } from "./NotebookBar.js";
import { NoteList } from "./NoteList.js";
import { NoteEditor } from "./NoteEditor.js";

export function NotesPane() {
  useEffect(() => {
    void loadNotebooks();
    // Leaving the page saves what is typed.
    return () => void flushSave();
  }, []);
  const v = notebooksView.value;
  const open = openNote.value;
  return html`
    <section class="settings-section notes-pane" data-testid="notes-pane"
      aria-labelledby="notes-title">
      <div class="mcp-head">
        <h2 id="notes-title" class="provider-title">${t("notes.title")}</h2>
      </div>
      <p class="settings-note">${t("notes.intro")}</p>
      ${organising.value &&
        html`<p class="banner banner-warn" data-testid="notes-organising">${
          t("notes.organising")
        }</p>`}
      ${v && v.problems.length > 0 &&
        html`
          <div class="banner banner-danger" role="alert" data-testid="notebooks-problems">
            <p>${t("notes.problems")}</p>
            ${v.problems.map((p) =>
              html`<p class="banner-sub"><span class="mono">${p.file}</span>: ${p.error}</p>`
            )}
          </div>
        `}
      <div class="notes-layout" data-open=${open ? "true" : "false"}>
        <div class="notes-side">
          <${NotebookBar} />
          <${NoteList} />
        </div>
        <div class="notes-main">
          <${NoteEditor} key=${open ? `${open.notebook}/${open.name}` : ""}
            onBack=${closeNote} />
        </div>
      </div>
      ${v && html`<p class="field-help">${t("notes.folder", { path: v.root })}</p>`}
    </section>
  `;
}
