/**
 * Exporting the open task as Markdown (to read) or as JSON (to import on another
 * machine): the task menu (⋯) in the header on wide screens; on phones the
 * same items are in the header's Workbench sheet (no room for one more button there).
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { currentId } from "../../state/tasks.js";
import { exportTasks } from "../../state/carry.js";
import { Menu } from "../Menu.js";
import { paletteMenuItems } from "../palette/menuItems.js";
import { MenuItem } from "../MenuItem.js";
import { IconDownload, IconMore } from "./icons.js";
import { organiseItem } from "../notes/OrganiseItem.js";

/**
 * The export items of a task's menu.
 * @param {string} taskId
 * @param {() => void} close closes the menu
 */
export function exportItems(taskId, close) {
  return (/** @type {const} */ (["md", "json"])).map((format) =>
    html`
      <${MenuItem}
        role="menuitem"
        checked=${false}
        testid=${`export-${format}`}
        title=${t(format === "md" ? "carry.exportMd" : "carry.exportJson")}
        desc=${t(format === "md" ? "carry.exportMdDesc" : "carry.exportJsonDesc")}
        icon=${html`<${IconDownload} />`}
        onSelect=${() => {
          close();
          exportTasks({ taskIds: [taskId] }, format);
        }}
      />
    `
  );
}

export function TaskMenu() {
  const id = currentId.value;
  if (id === null) return null;
  return html`
    <${Menu}
      testid="task-menu"
      title=${t("carry.taskMenu")}
      value=""
      wrapClass="task-menu desktop-only"
      button=${html`<${IconMore} />`}
    >
      ${(/** @type {() => void} */ close) => [
        ...exportItems(id, close),
        organiseItem(id, close),
        ...paletteMenuItems(close),
      ]}
    <//>
  `;
}
