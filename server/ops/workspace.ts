/** The folder a task works in, for the ops that act on it (git, file tree). */
import { join } from "../../lib/path.ts";
import { type OpContext, services } from "./context.ts";

/** The project folder, or the data dir's DefaultProject. */
export function taskWorkspace(ctx: OpContext, taskId: string): string {
  const task = services(ctx).tasks.get(taskId);
  return task.projectPath ?? join(ctx.home, "DefaultProject");
}
