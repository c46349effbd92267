/**
 * "Organise into a note" in a task's menu (the header's ⋯ on wide screens, the
 * Workbench sheet on phones): the model turns the conversation into a note, which is
 * then opened on the Notes page.
 */
import { signal } from "@preact/signals";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { notifyError } from "../../state/ui.js";
import { MenuItem } from "../MenuItem.js";
import { IconNote } from "./NoteIcons.js";

/**
 * The notes state, fetched with the first use: the task menu is on the first screen,
 * the notes are not (until it is here, nothing can be organising).
 * @type {import("@preact/signals").Signal<typeof import("../../state/notes.js") | null>}
 */
const notes = signal(null);

/** @param {string} taskId @param {() => void} close closes the menu */
export function organiseItem(taskId, close) {
  return html`
    <${MenuItem}
      role="menuitem"
      checked=${false}
      testid="organise-note"
      title=${t("notes.organise")}
      desc=${notes.value?.organising.value ? t("notes.organising") : t("notes.organiseDesc")}
      icon=${html`<${IconNote} />`}
      onSelect=${() => {
        close();
        import("../../state/notes.js").then(
          (m) => {
            notes.value = m;
            return m.organiseTask(taskId);
          },
          (e) => notifyError("notes.organiseError", e),
        );
      }}
    />
  `;
}
