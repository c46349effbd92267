/**
 * A todo checklist: pending items with an empty circle, the one in
 * progress highlighted, completed ones ticked and struck through.
 *
 * @typedef {import("../../state/interact_model.js").Todo} Todo
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { IconCircle, IconDoing, IconDone } from "./InteractIcons.js";

const ICONS = { pending: IconCircle, in_progress: IconDoing, completed: IconDone };

/** @param {{todos: Todo[]}} props */
export function TodoList({ todos }) {
  return html`
    <ul class="todo-list" data-testid="todo-list">
      ${todos.map((td) => {
        const Icon = ICONS[td.status];
        return html`
          <li class="todo-item" data-status=${td.status}>
            <span class="todo-icon"><${Icon} size=${16} /></span>
            <span class="todo-text">${td.content}</span>
            <span class="sr-only">${t(/** @type {const} */ (`todo.status.${td.status}`))}</span>
          </li>
        `;
      })}
    </ul>
  `;
}
