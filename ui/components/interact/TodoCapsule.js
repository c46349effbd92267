/**
 * The progress capsule above the composer: a ring, `done/total`
 * and the item in progress, from the task's latest todo_write. A click expands the
 * whole checklist. Hidden when the task has no list, or everything is completed and
 * the run ended.
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { capsuleShown } from "../../state/interact_model.js";
import { isRunning } from "../../state/run_actions.js";
import { currentTodos } from "../../state/todos.js";
import { IconChevronDown } from "../RunIcons.js";
import { TodoList } from "./TodoList.js";

const R = 7;
const C = 2 * Math.PI * R;

/** @param {{done: number, total: number}} props */
function Ring({ done, total }) {
  const f = total ? done / total : 0;
  return html`
    <svg class="todo-ring" width="18" height="18" viewBox="0 0 18 18" aria-hidden="true">
      <circle class="todo-ring-bg" cx="9" cy="9" r=${R} />
      <circle
        class="todo-ring-fg"
        cx="9"
        cy="9"
        r=${R}
        stroke-dasharray=${`${(C * f).toFixed(2)} ${C.toFixed(2)}`}
        transform="rotate(-90 9 9)"
      />
    </svg>
  `;
}

export function TodoCapsule() {
  const [open, setOpen] = useState(false);
  const p = currentTodos.value;
  if (!p || !capsuleShown(p, isRunning.value)) return null;
  const next = p.todos.find((td) => td.status === "pending")?.content;
  const label = p.current ??
    (p.done === p.total ? t("todo.allDone") : next ? t("todo.next", { item: next }) : "");
  return html`
    <div class="todo-capsule" data-testid="todo-capsule" data-open=${open ? "true" : "false"}
      data-complete=${p.done === p.total ? "true" : "false"}
    >
      ${open && html`
        <div class="todo-capsule-list">
          <${TodoList} todos=${p.todos} />
        </div>
      `}
      <button
        type="button"
        class="todo-capsule-head"
        data-testid="todo-capsule-toggle"
        aria-expanded=${open ? "true" : "false"}
        title=${open ? t("todo.collapse") : t("todo.expand")}
        onClick=${() => setOpen(!open)}
      >
        <${Ring} done=${p.done} total=${p.total} />
        <span class="todo-count" data-testid="todo-count">${`${p.done}/${p.total}`}</span>
        <span class="todo-current" data-testid="todo-current">${label}</span>
        <span class="todo-chev"><${IconChevronDown} size=${14} /></span>
        <span class="sr-only">${t("todo.label")}</span>
      </button>
    </div>
  `;
}
