/**
 * The Markdown shortcuts above the note's text (H2, H3, bold, italic, code, list, to-do):
 * each edits the textarea's text around its selection and puts the caret back.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { applyFormat, FORMAT_KINDS } from "./md_format.js";
import { editNote } from "../../state/notes.js";

/** What each button shows (short marks, the same in every language). */
const LABELS = {
  h2: "H2",
  h3: "H3",
  bold: "B",
  italic: "I",
  code: "</>",
  list: "•",
  todo: "☐",
};

/** @param {{area: () => HTMLTextAreaElement|null, disabled: boolean}} props */
export function NoteToolbar({ area, disabled }) {
  return html`
    <div class="notes-format" role="toolbar" aria-label=${t("notes.format")}>
      ${FORMAT_KINDS.map((k) =>
        html`
          <button type="button" class=${`btn btn-small notes-format-${k}`}
            data-testid=${`notes-format-${k}`} disabled=${disabled}
            title=${t(/** @type {const} */ (`notes.format.${k}`))}
            aria-label=${t(/** @type {const} */ (`notes.format.${k}`))}
            onMouseDown=${(/** @type {Event} */ e) => e.preventDefault()}
            onClick=${() => {
              const el = area();
              if (!el) return;
              const r = applyFormat(
                { text: el.value, start: el.selectionStart, end: el.selectionEnd },
                k,
              );
              el.value = r.text;
              editNote(r.text);
              el.focus();
              el.setSelectionRange(r.start, r.end);
            }}>${LABELS[k]}</button>
        `
      )}
    </div>
  `;
}
