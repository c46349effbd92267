/**
 * One task in the sidebar: its title and state badge (the same words as the phone home
 * and the CLI), open on click, pin toggle, inline rename (pencil or double-click;
 * Enter saves, Esc cancels) and an inline two-step delete (Esc or a click elsewhere
 * cancels). Without hover (touch screens) the three actions wait behind one "more"
 * button, so the title keeps the row's width.
 *
 * @typedef {import("../../protocol/index.ts").TaskSummary} TaskSummary
 */
import { InlineRename } from "./InlineRename.js";
import { useDismiss } from "./useDismiss.js";
import { useRef, useState } from "preact/hooks";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { deleteTask, pinTask, renameTask } from "../state/actions.js";
import { approvalTaskIds } from "../state/approvals.js";
import { openTask } from "../state/tasks.js";
import { IconPencil, IconPin, IconTrash } from "./Icons.js";
import { IconMore } from "./carry/icons.js";
import { StatusBadge } from "./StatusBadge.js";
import { taskState } from "../../protocol/index.ts";

/** @param {{task: TaskSummary}} props */
function StatusMarker({ task }) {
  // A pending approval may be one kept from before a restart (no run is live then).
  const state = taskState(task, approvalTaskIds.value.has(task.id));
  return html`<${StatusBadge} state=${state} testid=${`status-${state}`} compact=${true} />`;
}

/** @param {{task: TaskSummary, active: boolean}} props */
export function TaskRow({ task, active }) {
  const [mode, setMode] = useState(/** @type {"view"|"rename"|"confirm"} */ ("view"));
  const rowRef = useRef(/** @type {HTMLLIElement|null} */ (null));
  const cancelRef = useRef(/** @type {HTMLButtonElement|null} */ (null));

  const [actionsOpen, setActionsOpen] = useState(false);

  useDismiss(mode === "confirm", rowRef, () => setMode("view"), cancelRef);
  useDismiss(actionsOpen && mode === "view", rowRef, () => setActionsOpen(false));

  const title = task.title || t("task.untitled");
  const common = { ref: rowRef, "data-testid": "task-row", "data-task-id": task.id };

  if (mode === "rename") {
    return html`
      <li ...${common} class="task-row editing">
        <${InlineRename}
          value=${task.title}
          label=${t("task.renameLabel")}
          maxLength=${200}
          testid="rename-input"
          onSave=${(/** @type {string} */ v) => renameTask(task.id, v)}
          onDone=${() => setMode("view")}
        />
      </li>
    `;
  }
  if (mode === "confirm") {
    return html`
      <li ...${common} class="task-row confirming" role="group" aria-label=${t(
        "task.deleteConfirm",
      )}>
        <span class="confirm-text">${t("task.deleteConfirm")}</span>
        <button
          type="button"
          class="btn btn-small btn-danger"
          data-testid="confirm-delete"
          onClick=${() => {
            setMode("view");
            deleteTask(task.id);
          }}
        >
          ${t("task.confirm")}
        </button>
        <button
          type="button"
          ref=${cancelRef}
          class="btn btn-small"
          data-testid="cancel-delete"
          onClick=${() => setMode("view")}
        >
          ${t("task.cancel")}
        </button>
      </li>
    `;
  }
  const pinLabel = task.pinned ? t("task.unpin") : t("task.pin");
  return html`
    <li
      ...${common}
      class=${`task-row${active ? " active" : ""}${task.pinned ? " pinned" : ""}${
        actionsOpen ? " actions-open" : ""
      }`}
      data-unread=${task.unread ? "true" : "false"}
      data-status=${taskState(task, approvalTaskIds.value.has(task.id))}
    >
      <button
        type="button"
        class="task-open"
        aria-current=${active ? "page" : undefined}
        onClick=${() => openTask(task.id)}
        onDblClick=${() => setMode("rename")}
      >
        <span class="task-title" data-testid="task-title">${title}</span>
        <${StatusMarker} task=${task} />
        ${task.unread &&
          html`
            <span class="dot dot-accent unread-dot" data-testid="unread-dot" role="img"
              aria-label=${t(
                "task.unread",
              )}></span>
          `}
      </button>
      <button
        type="button"
        class="icon-btn task-more"
        data-testid="task-more"
        aria-expanded=${actionsOpen ? "true" : "false"}
        aria-label=${t("task.more")}
        title=${t("task.more")}
        onClick=${() => setActionsOpen(!actionsOpen)}
      >
        <${IconMore} size=${16} />
      </button>
      <span class="task-actions">
        <button
          type="button"
          class=${`icon-btn${task.pinned ? " on" : ""}`}
          data-testid="pin-task"
          aria-pressed=${task.pinned ? "true" : "false"}
          aria-label=${pinLabel}
          title=${pinLabel}
          onClick=${() => pinTask(task.id, !task.pinned)}
        >
          <${IconPin} size=${16} />
        </button>
        <button
          type="button"
          class="icon-btn"
          data-testid="rename-task"
          aria-label=${t("task.rename")}
          title=${t("task.rename")}
          onClick=${() => {
            setActionsOpen(false);
            setMode("rename");
          }}
        >
          <${IconPencil} size=${16} />
        </button>
        <button
          type="button"
          class="icon-btn"
          data-testid="delete-task"
          aria-label=${t("task.delete")}
          title=${t("task.delete")}
          onClick=${() => {
            setActionsOpen(false);
            setMode("confirm");
          }}
        >
          <${IconTrash} size=${16} />
        </button>
      </span>
    </li>
  `;
}
