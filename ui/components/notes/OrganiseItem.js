/**
 * "Organise into a note" in a task's menu (the header's ⋯ on wide screens, the
 * Workbench sheet on phones): the model turns the conversation into a note, which is
 * then opened on the Notes page.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { organiseTask, organising } from "../../state/notes.js";
import { MenuItem } from "../MenuItem.js";
import { IconNote } from "./NoteIcons.js";

/** @param {string} taskId @param {() => void} close closes the menu */
export function organiseItem(taskId, close) {
  return html`
    <${MenuItem}
      role="menuitem"
      checked=${false}
      testid="organise-note"
      title=${t("notes.organise")}
      desc=${organising.value ? t("notes.organising") : t("notes.organiseDesc")}
      icon=${html`<${IconNote} />`}
      onSelect=${() => {
        close();
        void organiseTask(taskId);
      }}
    />
  `;
}
