/** `todo_write`: the agent's plan as a checklist (full overwrite); drives the progress capsule. */
import { fail, ok } from "./types.ts";
import { defineTool } from "./define.ts";
import type { ToolDetails } from "../protocol/tool_details.ts";
import { arr, obj, oneOf } from "../protocol/schema.ts";
import { text } from "./args.ts";

const STATUSES = ["pending", "in_progress", "completed"] as const;
type Todo = { content: string; status: typeof STATUSES[number] };

export const todoWrite = defineTool<{ todos: Todo[] }, ToolDetails<"todo_write">>({
  name: "todo_write",
  description:
    "Write the complete todo list for this task (it replaces the previous list). Use it for " +
    "multi-step work: keep exactly one item in_progress while working, mark items completed as soon as " +
    "they are done.",
  args: obj({
    todos: arr(obj({ content: text("What to do, imperative"), status: oneOf(STATUSES) }), 50),
  }),
  kind: "read", // changes nothing outside the conversation
  placement: "main",
  execute(args) {
    const todos = args.todos;
    const blank = todos.findIndex((t) => !t.content.trim());
    if (blank >= 0) {
      return Promise.resolve(fail(`todos[${blank}].content must not be blank.`));
    }
    const done = todos.filter((t) => t.status === "completed").length;
    const list = todos.map((t) =>
      `[${t.status === "completed" ? "x" : t.status === "in_progress" ? "~" : " "}] ${t.content}`
    );
    return Promise.resolve(
      ok(`Todo list updated (${done}/${todos.length} done):\n${list.join("\n")}`, {
        todos,
        done,
        total: todos.length,
      }),
    );
  },
});
