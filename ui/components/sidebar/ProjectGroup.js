/**
 * One project in the sidebar: its head (drag handle, collapse toggle with the folder
 * name — full path as tooltip —, new task in it, rename, remove) and its tasks.
 * Rename and remove work inline like task rows: Enter saves, Esc cancels; removing
 * asks once more in place (Esc or a click elsewhere cancels) and keeps the tasks.
 *
 * @typedef {import("../../../protocol/index.ts").Project} Project
 * @typedef {import("../../../protocol/index.ts").TaskSummary} TaskSummary
 */
import { InlineRename } from "../InlineRename.js";
import { useDismiss } from "../useDismiss.js";
import { useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import {
  draftProject,
  isCollapsed,
  moveProject,
  newTaskIn,
  projects,
  removeProject,
  renameProject,
  saveProjectOrder,
  toggleCollapsed,
} from "../../state/projects.js";
import { currentId } from "../../state/tasks.js";
import { closeSettings } from "../../state/settings.js";
import { IconPencil, IconTrash } from "../Icons.js";
import { TaskRow } from "../TaskRow.js";
import { ReorderHandle } from "./ReorderHandle.js";
import { IconBranch, IconChat, IconChevronRight, IconFolder } from "./icons.js";
import { lazy } from "../lazy.js";

// Opened from the project's setup button only: fetched when first shown.
const SetupDialog = lazy(() => import("../worktree/SetupDialog.js"), "SetupDialog");

/** @param {{project: Project, tasks: TaskSummary[], index: number}} props */
export function ProjectGroup({ project, tasks, index }) {
  const [mode, setMode] = useState(/** @type {"view"|"rename"|"confirm"} */ ("view"));
  const [setupOpen, setSetupOpen] = useState(false);
  const headRef = useRef(/** @type {HTMLDivElement|null} */ (null));
  const cancelRef = useRef(/** @type {HTMLButtonElement|null} */ (null));
  const key = `project:${project.id}`;
  const collapsed = isCollapsed(key);
  const drafting = currentId.value === null && draftProject.value === project.path;

  useDismiss(mode === "confirm", headRef, () => setMode("view"), cancelRef);

  let head;
  if (mode === "rename") {
    head = html`
      <${InlineRename}
        value=${project.name}
        label=${t("projects.renameLabel")}
        maxLength=${80}
        testid="project-rename-input"
        onSave=${(/** @type {string} */ v) => renameProject(project.id, v)}
        onDone=${() => setMode("view")}
      />
    `;
  } else if (mode === "confirm") {
    head = html`
      <span class="confirm-text" title=${t("projects.removeHint")}>
        ${t("projects.removeConfirm")}
      </span>
      <button
        type="button"
        class="btn btn-small btn-danger"
        data-testid="confirm-remove-project"
        onClick=${() => {
          setMode("view");
          removeProject(project.id);
        }}
      >
        ${t("projects.remove")}
      </button>
      <button
        type="button"
        ref=${cancelRef}
        class="btn btn-small"
        data-testid="cancel-remove-project"
        onClick=${() => setMode("view")}
      >
        ${t("task.cancel")}
      </button>
    `;
  } else {
    head = html`
      <${ReorderHandle}
        label=${t("projects.moveProject", { name: project.name })}
        name=${project.name}
        index=${index}
        count=${projects.value.length}
        testid="reorder-project"
        onMove=${(/** @type {number} */ to) => moveProject(project.id, to)}
        onDrop=${saveProjectOrder}
      />
      <button
        type="button"
        class="project-toggle"
        data-testid="project-toggle"
        aria-expanded=${collapsed ? "false" : "true"}
        title=${project.path}
        onClick=${() => toggleCollapsed(key)}
        onDblClick=${() => setMode("rename")}
      >
        <span class="chevron" data-open=${collapsed ? "false" : "true"}>
          <${IconChevronRight} size=${12} />
        </span>
        <${IconFolder} size=${15} />
        <span class="project-name" data-testid="project-name">${project.name}</span>
        ${collapsed && tasks.length > 0 && html`<span class="sb-count">${tasks.length}</span>`}
      </button>
      <span class="task-actions project-actions">
        <button
          type="button"
          class="icon-btn"
          data-testid="project-rename"
          aria-label=${t("projects.rename")}
          title=${t("projects.rename")}
          onClick=${() => setMode("rename")}
        >
          <${IconPencil} size=${15} />
        </button>
        <button
          type="button"
          class="icon-btn"
          data-testid="project-setup"
          aria-label=${t("worktree.setupButton")}
          title=${project.setupCommand
            ? t("worktree.setupButtonSet", { command: project.setupCommand })
            : t("worktree.setupButton")}
          onClick=${() => setSetupOpen(true)}
        >
          <${IconBranch} />
        </button>
        <button
          type="button"
          class="icon-btn"
          data-testid="project-remove"
          aria-label=${t("projects.remove")}
          title=${t("projects.remove")}
          onClick=${() => setMode("confirm")}
        >
          <${IconTrash} size=${15} />
        </button>
      </span>
      <button
        type="button"
        class=${`icon-btn project-new${drafting ? " on" : ""}`}
        data-testid="project-new-task"
        aria-label=${t("projects.newTaskIn", { name: project.name })}
        title=${t("projects.newTaskIn", { name: project.name })}
        onClick=${() => {
          // Draft first: it replaces the settings URL, so no history move can undo it.
          newTaskIn(project.path);
          closeSettings();
        }}
      >
        <${IconChat} size=${16} />
      </button>
    `;
  }

  return html`
    <li
      class="project"
      data-reorder-item
      data-testid="project"
      data-project-id=${project.id}
      data-path=${project.path}
    >
      <div
        ref=${headRef}
        class=${`project-head${
          mode !== "view" ? ` ${mode === "rename" ? "editing" : "confirming"}` : ""
        }${drafting ? " drafting" : ""}`}
      >
        ${head}
      </div>
      ${setupOpen &&
        html`<${SetupDialog} project=${project} onClose=${() => setSetupOpen(false)} />`}
      ${!collapsed &&
        html`
          <ul class="task-list project-tasks" role="list" data-testid="project-tasks">
            ${tasks.length === 0
              ? html`<li class="sidebar-note project-empty">${t("projects.noTasks")}</li>`
              : tasks.map((task) =>
                html`<${TaskRow} key=${task.id} task=${task} active=${
                  task.id === currentId.value
                } />`
              )}
          </ul>
        `}
    </li>
  `;
}
