/** `write_file`: create or overwrite a file (parent folders created). Checkpointed by the runner. */
import { dirname } from "../lib/path.ts";
import { fail, ok } from "./types.ts";
import { defineTool } from "./define.ts";
import type { ToolDetails } from "../protocol/tool_details.ts";
import { obj } from "../protocol/schema.ts";
import { filePath, text } from "./args.ts";
import { notRegular, toolPath } from "./paths.ts";
import { stampOf } from "./file_stamp.ts";
import { lineDiff } from "../protocol/diff.ts";
import { ensureTempIgnore } from "./temp_dir.ts";

const MAX_BYTES = 10 * 1024 * 1024;

export const writeFile = defineTool<{ path: string; content: string }, ToolDetails<"write_file">>({
  name: "write_file",
  description:
    "Create a file or overwrite it with the given content. Parent folders are created. " +
    "Prefer edit_file for changing part of an existing file.",
  args: obj({ path: filePath, content: text("The complete new content") }),
  kind: "write",
  traits: { writesPath: true, changesFiles: true },
  async execute(args, ctx) {
    const target = toolPath("write_file", args.path, ctx);
    if ("error" in target) return fail(target.error);
    const { abs, shown } = target;
    const bytes = new TextEncoder().encode(args.content);
    if (bytes.length > MAX_BYTES) {
      return fail(`Content is too large (${bytes.length} bytes > 10 MB).`);
    }
    let existed = true;
    let oldText = "";
    try {
      const st = Deno.lstatSync(abs);
      if (st.isDirectory) return fail(`${shown} is a directory.`);
      if (st.isSymlink) return fail(`${shown} is a symbolic link; refusing to write through it.`);
      if (!st.isFile) return fail(notRegular(shown));
      oldText = Deno.readTextFileSync(abs);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) {
        return fail(`Cannot write ${shown}: ${(e as Error).message}`);
      }
      existed = false;
    }
    try {
      Deno.mkdirSync(dirname(abs), { recursive: true });
      await ensureTempIgnore(abs, ctx.workspace);
      Deno.writeFileSync(abs, bytes);
    } catch (e) {
      return fail(`Cannot write ${shown}: ${(e as Error).message}`);
    }
    const lines = args.content.split("\n").length;
    return ok(
      `${existed ? "Overwrote" : "Created"} ${shown} (${lines} lines, ${bytes.length} bytes).`,
      {
        path: shown,
        created: !existed,
        diff: lineDiff(oldText, args.content),
        file: stampOf(abs),
      },
    );
  },
});
