/**
 * todo_write in the timeline: the item in progress (or the count) in the head, a
 * `done/total` badge, and expanded the checklist as written by this call.
 *
 * @typedef {import("./card_props.js").CardProps} CardProps
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { progressOf, todosOf } from "../../state/interact_model.js";
import { resultMeta, resultText } from "../../state/tool_model.js";
import { TodoList } from "../interact/TodoList.js";
import { CardShell } from "./CardShell.js";

/** @param {CardProps} props */
export function TodoCard({ name, args, result, status, ms, approval, receiving }) {
  const todos = todosOf(resultMeta(result, ["todo_write"]).todos) ?? todosOf(args.todos);
  const p = todos ? progressOf(todos) : null;
  const body = p && status !== "failed"
    ? () => html`<${TodoList} todos=${p.todos} />`
    : result
    ? () =>
      html`<pre class="tool-out tool-out-error" data-testid="tool-output">${
        resultText(result)
      }</pre>`
    : null;
  return html`
    <${CardShell}
      name=${name}
      kind="todo"
      status=${status}
      summary=${p ? p.current ?? t("todo.summary", { done: p.done, total: p.total }) : ""}
      badges=${p &&
        html`<span class="tool-badge" data-testid="todo-badge">${p.done}/${p.total}</span>`}
      ms=${ms}
      approval=${approval}
      receiving=${receiving}
      body=${body}
    />
  `;
}
