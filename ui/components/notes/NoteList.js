/**
 * The notes of the notebook shown, newest first: name (what the editor's name field says),
 * first heading when it differs, start of the text, date. Files
 * that are not readable notes are listed in a banner (left alone on disk).
 *
 * @typedef {import("../../../protocol/index.ts").NoteSummary} NoteSummary
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { createNote, notebookView, openNote, openNoteByName } from "../../state/notes.js";
import { IconPlus } from "../settings/controls.js";

/** @param {number} ms */
const when = (ms) =>
  new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** @param {NoteSummary} n @param {string} q lower case */
const matches = (n, q) =>
  !q || [n.name, n.title, n.preview].some((s) => s.toLowerCase().includes(q));

export function NoteList() {
  const v = notebookView.value;
  const open = openNote.value;
  const [query, setQuery] = useState("");
  const q = query.trim().toLowerCase();
  const shown = v ? v.notes.filter((n) => matches(n, q)) : [];
  return html`
    <div class="notes-list" data-testid="notes-list">
      <button type="button" class="btn btn-accent notes-new" data-testid="notes-new"
        onClick=${() => void createNote()}><${IconPlus} size=${16} /> ${t("notes.newNote")}</button>
      ${v && v.notes.length > 0 &&
        html`
          <input type="search" class="input" data-testid="notes-search" value=${query}
            placeholder=${t("notes.search")} aria-label=${t("notes.search")} maxlength="200"
            onInput=${(/** @type {Event} */ e) =>
              setQuery(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
        `}
      ${v && v.problems.length > 0 &&
        html`
          <div class="banner banner-danger" role="alert" data-testid="notes-problems">
            <p>${t("notes.problems")}</p>
            ${v.problems.map((p) =>
              html`<p class="banner-sub"><span class="mono">${p.file}</span>: ${p.error}</p>`
            )}
          </div>
        `}
      ${!v
        ? html`<p class="settings-note">${t("settings.loading")}</p>`
        : v.notes.length === 0
        ? html`<p class="settings-note" data-testid="notes-empty">${t("notes.empty")}</p>`
        : shown.length === 0
        ? html`<p class="settings-note" data-testid="notes-no-match">${t("notes.noMatch")}</p>`
        : html`
          <ul class="notes-cards">
            ${shown.map((n) =>
              html`
                <li key=${n.name}>
                  <button type="button" class="notes-card" data-testid="notes-card"
                    data-name=${n.name} aria-current=${open?.name === n.name ? "true" : "false"}
                    onClick=${() => void openNoteByName(v.notebook, n.name)}>
                    <span class="notes-card-title" data-testid="notes-card-title">${n.name}</span>
                    ${n.title !== n.name &&
                      html`<span class="notes-card-heading" data-testid="notes-card-heading">${n.title}</span>`}
                    ${n.preview && html`<span class="notes-card-preview">${n.preview}</span>`}
                    <span class="notes-card-date">${when(n.updatedAt)}</span>
                  </button>
                </li>
              `
            )}
          </ul>
        `}
    </div>
  `;
}
