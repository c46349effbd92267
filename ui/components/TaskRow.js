/**
 * One task in the sidebar: open on click, pin toggle, inline rename (pencil or
 * double-click; Enter saves, Esc cancels) and an inline two-step delete (Esc or a
 * click elsewhere cancels).
 *
 * @typedef {import("../../server/protocol.ts").TaskSummary} TaskSummary
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

/** @param {{task: TaskSummary}} props */
function StatusMarker({ task }) {
  if (task.status === "running") {
    return html`
      <span class="status-marker spinner" role="img" aria-label=${t("task.running")} title=${t(
        "task.running",
      )}
        data-testid="status-running"></span>
    `;
  }
  // Waiting for a live approval, or holding one from before a restart.
  if (task.status === "waiting" || approvalTaskIds.value.has(task.id)) {
    return html`
      <span class="status-marker dot dot-warn" role="img" aria-label=${t("task.waiting")} title=${t(
        "task.waiting",
      )}
        data-testid="status-waiting"></span>
    `;
  }
  if (task.status === "error") {
    return html`
      <span class="status-marker dot dot-danger" role="img" aria-label=${t("task.error")} title=${t(
        "task.error",
      )}
        data-testid="status-error"></span>
    `;
  }
  return null;
}

/** @param {{task: TaskSummary, active: boolean}} props */
export function TaskRow({ task, active }) {
  const [mode, setMode] = useState(/** @type {"view"|"rename"|"confirm"} */ ("view"));
  const rowRef = useRef(/** @type {HTMLLIElement|null} */ (null));
  const cancelRef = useRef(/** @type {HTMLButtonElement|null} */ (null));

  useDismiss(mode === "confirm", rowRef, () => setMode("view"), cancelRef);

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
      class=${`task-row${active ? " active" : ""}${task.pinned ? " pinned" : ""}`}
      data-unread=${task.unread ? "true" : "false"}
      data-status=${task.status}
    >
      <button
        type="button"
        class="task-open"
        aria-current=${active ? "page" : undefined}
        onClick=${() => openTask(task.id)}
        onDblClick=${() => setMode("rename")}
      >
        <${StatusMarker} task=${task} />
        <span class="task-title" data-testid="task-title">${title}</span>
        ${task.unread &&
          html`
            <span class="dot dot-accent unread-dot" data-testid="unread-dot" role="img"
              aria-label=${t(
                "task.unread",
              )}></span>
          `}
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
          onClick=${() => setMode("rename")}
        >
          <${IconPencil} size=${16} />
        </button>
        <button
          type="button"
          class="icon-btn"
          data-testid="delete-task"
          aria-label=${t("task.delete")}
          title=${t("task.delete")}
          onClick=${() => setMode("confirm")}
        >
          <${IconTrash} size=${16} />
        </button>
      </span>
    </li>
  `;
}
