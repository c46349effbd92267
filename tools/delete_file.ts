/** `delete_file`: regular files only; the runner requires a prior read and checkpoints it. */
import { fail, ok } from "./types.ts";
import { defineTool } from "./define.ts";
import type { ToolDetails } from "../protocol/tool_details.ts";
import { obj } from "../protocol/schema.ts";
import { filePath } from "./args.ts";
import { toolPath } from "./paths.ts";

export const deleteFile = defineTool<{ path: string }, ToolDetails<"delete_file">>({
  name: "delete_file",
  description: "Delete one regular file (not a folder). Read the file first.",
  args: obj({ path: filePath }),
  kind: "write",
  traits: { writesPath: true, needsFreshRead: "delete", deletesPath: true, changesFiles: true },
  execute(args, ctx) {
    const target = toolPath("delete_file", args.path, ctx);
    if ("error" in target) return fail(target.error);
    const { abs, shown } = target;
    try {
      const st = Deno.lstatSync(abs);
      if (!st.isFile) {
        return fail(`${shown} is not a regular file; delete_file only removes files.`);
      }
      Deno.removeSync(abs);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return fail(`File not found: ${shown}`);
      return fail(`Cannot delete ${shown}: ${(e as Error).message}`);
    }
    return ok(`Deleted ${shown}.`, { path: shown, deleted: true });
  },
});
