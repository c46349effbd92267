/** `todo_write`: the agent's plan as a checklist (full overwrite); drives the progress capsule. */
import { fail, ok, type Tool } from "./types.ts";

const STATUSES = ["pending", "in_progress", "completed"];

export const todoWrite: Tool = {
  name: "todo_write",
  description:
    "Write the complete todo list for this task (it replaces the previous list). Use it for " +
    "multi-step work: keep exactly one item in_progress while working, mark items completed as soon as " +
    "they are done.",
  parameters: {
    type: "object",
    properties: {
      todos: {
        type: "array",
        maxItems: 50,
        items: {
          type: "object",
          properties: {
            content: { type: "string", description: "What to do, imperative" },
            status: { type: "string", enum: STATUSES },
          },
          required: ["content", "status"],
          additionalProperties: false,
        },
      },
    },
    required: ["todos"],
    additionalProperties: false,
  },
  kind: "read", // changes nothing outside the conversation
  placement: "main",
  execute(args) {
    const todos = args.todos;
    if (!Array.isArray(todos)) {
      return Promise.resolve(fail("todo_write needs `todos`: an array of {content, status}."));
    }
    if (todos.length > 50) return Promise.resolve(fail("At most 50 todos."));
    for (const [i, t] of todos.entries()) {
      if (typeof t?.content !== "string" || !t.content.trim()) {
        return Promise.resolve(fail(`todos[${i}].content must be a non-empty string.`));
      }
      if (!STATUSES.includes(t?.status)) {
        return Promise.resolve(fail(`todos[${i}].status must be one of ${STATUSES.join(", ")}.`));
      }
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
};
