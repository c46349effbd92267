/** `delete_file`: regular files only; the runner requires a prior read and checkpoints it. */
import { fail, ok, type Tool } from "./types.ts";
import { toolPath } from "./paths.ts";

export const deleteFile: Tool = {
  name: "delete_file",
  description: "Delete one regular file (not a folder). Read the file first.",
  parameters: {
    type: "object",
    properties: {
      path: {
        type: "string",
        description: "File path (relative to the workspace root or absolute)",
      },
    },
    required: ["path"],
    additionalProperties: false,
  },
  kind: "write",
  async execute(args, ctx) {
    const target = await toolPath("delete_file", args, ctx);
    if ("error" in target) return fail(target.error);
    const { abs, shown } = target;
    try {
      const st = await Deno.lstat(abs);
      if (!st.isFile) {
        return fail(`${shown} is not a regular file; delete_file only removes files.`);
      }
      await Deno.remove(abs);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return fail(`File not found: ${shown}`);
      return fail(`Cannot delete ${shown}: ${(e as Error).message}`);
    }
    return ok(`Deleted ${shown}.`, { path: shown, deleted: true });
  },
};
