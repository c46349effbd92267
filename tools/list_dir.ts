/** `list_dir`: entries with type and size, directories first, 8 KB cap. */
import { fail, ok } from "./types.ts";
import { defineTool } from "./define.ts";
import { obj } from "../protocol/schema.ts";
import { text } from "./args.ts";
import { join } from "../lib/path.ts";
import { displayPath, hiddenBelow, outsideRoots, resolvePath } from "./paths.ts";
import { byCodeUnit } from "../lib/compare.ts";

const CAP_BYTES = 8 * 1024;

export const listDir = defineTool<{ path?: string }>({
  name: "list_dir",
  description:
    "List the entries of a directory (directories first) with their type and size in bytes. " +
    "Relative paths resolve against the workspace root.",
  args: obj({ "path?": text("Directory to list; default: workspace root") }),
  kind: "read",
  execute(args, ctx) {
    const dir = resolvePath(args.path || ".", ctx.workspace);
    const denied = outsideRoots(dir, ctx.roots ?? [ctx.workspace]);
    if (denied) return fail(denied);
    const entries: { name: string; dir: boolean; size: number; link: boolean }[] = [];
    const hide = hiddenBelow(dir, ctx.hidden ?? []);
    try {
      for (const e of Deno.readDirSync(dir)) {
        if (hide.has(join(dir, e.name))) continue;
        let size = 0;
        if (e.isFile) {
          try {
            size = Deno.statSync(`${dir}/${e.name}`).size;
          } catch { /* vanished or unreadable: list it without a size */ }
        }
        entries.push({ name: e.name, dir: e.isDirectory, size, link: e.isSymlink });
      }
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) {
        return fail(`Directory not found: ${displayPath(dir, ctx.workspace)}`);
      }
      if (e instanceof Deno.errors.NotADirectory) {
        return fail(
          `Not a directory: ${displayPath(dir, ctx.workspace)}. Use read_file for files.`,
        );
      }
      return fail(`Cannot list ${displayPath(dir, ctx.workspace)}: ${(e as Error).message}`);
    }
    entries.sort((a, b) => (a.dir === b.dir ? byCodeUnit(a.name, b.name) : a.dir ? -1 : 1));
    const lines: string[] = [];
    let bytes = 0;
    let shown = 0;
    for (const e of entries) {
      const line = e.dir ? `${e.name}/` : e.link ? `${e.name} -> (link)` : `${e.name}  ${e.size} B`;
      if (bytes + line.length + 1 > CAP_BYTES) break;
      lines.push(line);
      bytes += line.length + 1;
      shown++;
    }
    if (shown < entries.length) {
      lines.push(`… ${entries.length - shown} more entries not shown (8 KB cap)`);
    }
    if (entries.length === 0) lines.push("(empty directory)");
    return ok(lines.join("\n"), {
      path: displayPath(dir, ctx.workspace),
      count: entries.length,
      truncated: shown < entries.length,
    });
  },
});
