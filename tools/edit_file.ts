/**
 * `edit_file`: exact string replacement. Fails clearly when the text is not found or
 * is ambiguous. The runner enforces that the file was read earlier in the task and
 * has not changed since (stale-read check).
 */
import { fail, ok } from "./types.ts";
import { defineTool } from "./define.ts";
import { bool, doc, obj } from "../protocol/schema.ts";
import { filePath, text } from "./args.ts";
import { notRegular, toolPath } from "./paths.ts";
import { stampOf } from "./file_stamp.ts";
import { lineDiff } from "../protocol/diff.ts";

function countOccurrences(hay: string, needle: string): number {
  let n = 0;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + needle.length)) n++;
  return n;
}

export const editFile = defineTool<{
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}>({
  name: "edit_file",
  description: "Replace exact text in a file. old_string must match the file exactly (including " +
    "whitespace and indentation) and be unique unless replace_all is true. Read the file first.",
  args: obj({
    path: filePath,
    old_string: text("Exact text to replace"),
    new_string: text("Replacement text"),
    "replace_all?": doc(bool, "Replace every occurrence (default false)"),
  }),
  kind: "write",
  traits: { writesPath: true, needsFreshRead: "edit", changesFiles: true },
  execute(args, ctx) {
    const { old_string: oldS, new_string: newS } = args;
    const target = toolPath("edit_file", args.path, ctx);
    if ("error" in target) return fail(target.error);
    const { abs, shown } = target;
    if (oldS === "") {
      return fail(
        "old_string is empty. Use write_file to create a file or to replace its whole content.",
      );
    }
    if (oldS === newS) return fail("old_string and new_string are identical; nothing to change.");
    let text: string;
    try {
      const st = Deno.lstatSync(abs);
      if (st.isSymlink) return fail(`${shown} is a symbolic link; refusing to edit through it.`);
      if (!st.isFile) return fail(notRegular(shown));
      text = Deno.readTextFileSync(abs);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) {
        return fail(`File not found: ${shown}. Use write_file to create it.`);
      }
      return fail(`Cannot read ${shown}: ${(e as Error).message}`);
    }
    const n = countOccurrences(text, oldS);
    if (n === 0) {
      return fail(
        `old_string was not found in ${shown}. It must match exactly, including whitespace and ` +
          "indentation. Read the file again and copy the text precisely.",
      );
    }
    if (n > 1 && args.replace_all !== true) {
      return fail(
        `old_string occurs ${n} times in ${shown}. Add surrounding lines to make it unique, or set ` +
          "replace_all to true to replace every occurrence.",
      );
    }
    const next = args.replace_all === true
      ? text.split(oldS).join(newS)
      : text.replace(oldS, () => newS);
    try {
      Deno.writeTextFileSync(abs, next);
    } catch (e) {
      return fail(`Cannot write ${shown}: ${(e as Error).message}`);
    }
    return ok(`Edited ${shown}: replaced ${n} occurrence${n === 1 ? "" : "s"}.`, {
      path: shown,
      replacements: n,
      diff: lineDiff(text, next),
      file: stampOf(abs),
    });
  },
});
