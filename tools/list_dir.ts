/** `list_dir`: entries with type and size, directories first, 8 KB cap. */
import { fail, ok } from "./types.ts";
import { defineTool } from "./define.ts";
import type { ToolDetails } from "../protocol/tool_details.ts";
import { bool, doc, obj } from "../protocol/schema.ts";
import { text } from "./args.ts";
import { join } from "../lib/path.ts";
import { displayPath, hiddenBelow, outsideRoots, resolvePath } from "./paths.ts";
import { byCodeUnit } from "../lib/compare.ts";
import { IGNORED_NOTE, searchScope } from "./walk.ts";

const CAP_BYTES = 8 * 1024;

export const listDir = defineTool<
  { path?: string; include_ignored?: boolean },
  ToolDetails<"list_dir">
>({
  name: "list_dir",
  description:
    "List the entries of a directory (directories first) with their type and size in bytes. " +
    "Relative paths resolve against the workspace root. " + IGNORED_NOTE,
  args: obj({
    "path?": text("Directory to list; default: workspace root"),
    "include_ignored?": doc(bool, "Also list ignored entries"),
  }),
  kind: "read",
  execute(args, ctx) {
    const dir = resolvePath(args.path || ".", ctx.workspace);
    const denied = outsideRoots(dir, ctx.roots ?? [ctx.workspace]);
    if (denied) return fail(denied);
    const entries: { name: string; dir: boolean; size: number; link: boolean }[] = [];
    const hide = hiddenBelow(dir, ctx.hidden ?? []);
    // Only the ignore files decide here: a listing shows node_modules when nothing ignores it.
    const rules = searchScope(dir, ctx, args.include_ignored).ignore;
    let ignored = 0;
    try {
      const all = Array.from(Deno.readDirSync(dir));
      const chain = rules?.rootChain(dir);
      for (const e of all) {
        if (hide.has(join(dir, e.name))) continue;
        if (chain?.length && rules!.ignored(chain, join(dir, e.name), e.isDirectory)) {
          ignored++;
          continue;
        }
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
    if (ignored) {
      lines.push(
        `(${ignored} ignored entr${ignored === 1 ? "y" : "ies"} not shown; ` +
          "include_ignored: true lists them)",
      );
    } else if (entries.length === 0) lines.push("(empty directory)");
    return ok(lines.join("\n"), {
      path: displayPath(dir, ctx.workspace),
      count: entries.length,
      ignored,
      truncated: shown < entries.length,
    });
  },
});
