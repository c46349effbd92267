/**
 * `edit_file`: string replacement. An exact match is used when there is one; otherwise
 * the text is looked for line by line ignoring trailing whitespace, then indentation,
 * then typographic punctuation (models often re-indent what they copy), and the new
 * text takes the file's indentation. It never guesses between places: no match or
 * several fail with the line numbers of the candidates. The runner enforces that the
 * file was read earlier in the task and has not changed since (stale-read check).
 */
import { fail, ok } from "./types.ts";
import { defineTool } from "./define.ts";
import type { ToolDetails } from "../protocol/tool_details.ts";
import { bool, doc, obj } from "../protocol/schema.ts";
import { filePath, text } from "./args.ts";
import { notRegular, toolPath } from "./paths.ts";
import { stampOf } from "./file_stamp.ts";
import { lineDiff } from "../protocol/diff.ts";
import { seekAll } from "./patch/seek.ts";
import { hint, reindent, splitLines } from "./patch/apply.ts";

/** Where `needle` occurs in `hay`: the 1-based line of each occurrence. */
function occurrences(hay: string, needle: string): number[] {
  const lines: number[] = [];
  let line = 1, from = 0;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + needle.length)) {
    for (let k = hay.indexOf("\n", from); k >= 0 && k < i; k = hay.indexOf("\n", k + 1)) line++;
    from = i;
    lines.push(line);
  }
  return lines;
}

const lineList = (at: number[]) =>
  at.slice(0, 8).join(", ") + (at.length > 8 ? ` and ${at.length - 8} more` : "");

type Fuzzy =
  | { ok: true; text: string; count: number; pass: string }
  | { ok: false; error: string };

/**
 * The replacement made line by line when the exact text is not in the file: the old
 * lines are found under the loosest comparison that still finds them (one place, or
 * every place with `all`), and the new lines are re-indented to the file's indentation.
 */
function fuzzyReplace(
  text: string,
  oldS: string,
  newS: string,
  all: boolean,
  shown: string,
): Fuzzy {
  const crlf = text.includes("\r\n");
  const lines = splitLines(crlf ? text.replace(/\r\n/g, "\n") : text);
  const finalNewline = text.endsWith("\n");
  const oldLines = oldS.replace(/\r\n/g, "\n").replace(/\n$/, "").split("\n");
  const newLines = newS === "" ? [] : newS.replace(/\r\n/g, "\n").replace(/\n$/, "").split("\n");
  const { starts, pass } = seekAll(lines, oldLines, 0);
  if (!starts.length) {
    return {
      ok: false,
      error: `old_string was not found in ${shown}, not even ignoring whitespace and ` +
        `indentation.${hint(lines, oldLines)}`,
    };
  }
  // Overlapping windows (a pattern of repeated lines) count once.
  const places = starts.filter((s, i) => i === 0 || s >= starts[i - 1] + oldLines.length);
  if (places.length > 1 && !all) {
    return {
      ok: false,
      error:
        `old_string matches ${places.length} places in ${shown} when ${
          pass === "trailing-whitespace" ? "trailing whitespace is" : `${pass} is`
        } ignored (lines ${lineList(places.map((p) => p + 1))}). Include more surrounding lines ` +
        "to pick one, or set replace_all to true.",
    };
  }
  const out = [...lines];
  for (const s of [...places].reverse()) {
    const found = lines.slice(s, s + oldLines.length);
    const repl = pass === "exact" || pass === "trailing-whitespace"
      ? newLines
      : reindent(newLines, oldLines, found);
    out.splice(s, oldLines.length, ...repl);
  }
  let next = out.join("\n") + (finalNewline && out.length ? "\n" : "");
  if (crlf) next = next.replace(/\n/g, "\r\n");
  return { ok: true, text: next, count: places.length, pass };
}

export type EditArgs = {
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
};

export const editFileArgs = obj({
  path: filePath,
  old_string: text("Exact text to replace"),
  new_string: text("Replacement text"),
  "replace_all?": doc(bool, "Replace every occurrence (default false)"),
});

/** What is wrong with the arguments before the file is even read, or null. */
export function editArgsProblem(args: EditArgs): string | null {
  if (args.old_string === "") {
    return "old_string is empty. Use write_file to create a file or to replace its whole content.";
  }
  if (args.old_string === args.new_string) {
    return "old_string and new_string are identical; nothing to change.";
  }
  return null;
}

/**
 * The edit applied to a file's `text` (wherever it was read: the disk, an editor's
 * buffer): the new text, how many places and how loosely they matched, or the error.
 */
export function applyEdit(
  text: string,
  args: EditArgs,
  shown: string,
): { next: string; n: number; loose: string } | { error: string } {
  const { old_string: oldS, new_string: newS } = args;
  const at = occurrences(text, oldS);
  if (at.length > 1 && args.replace_all !== true) {
    return {
      error: `old_string occurs ${at.length} times in ${shown} (lines ${lineList(at)}). Add ` +
        "surrounding lines to make it unique, or set replace_all to true to replace every occurrence.",
    };
  }
  if (at.length > 0) {
    const next = args.replace_all === true
      ? text.split(oldS).join(newS)
      : text.replace(oldS, () => newS);
    return { next, n: at.length, loose: "" };
  }
  const fuzzy = fuzzyReplace(text, oldS, newS, args.replace_all === true, shown);
  if (!fuzzy.ok) return { error: fuzzy.error };
  const loose = fuzzy.pass === "punctuation"
    ? " (matched ignoring indentation and typographic punctuation)"
    : fuzzy.pass === "indentation"
    ? " (matched ignoring indentation; the new text was re-indented to fit)"
    : " (matched ignoring trailing whitespace)";
  return { next: fuzzy.text, n: fuzzy.count, loose };
}

export const EDIT_FILE_DESCRIPTION =
  "Replace text in a file. old_string should match the file exactly and be unique " +
  "unless replace_all is true; if it differs only in whitespace or indentation, the one place " +
  "it matches is used and new_string is re-indented to fit. Read the file first.";

export const editFile = defineTool<EditArgs, ToolDetails<"edit_file">>({
  name: "edit_file",
  description: EDIT_FILE_DESCRIPTION,
  args: editFileArgs,
  kind: "write",
  traits: { writesPath: true, needsFreshRead: "edit", changesFiles: true },
  execute(args, ctx) {
    const target = toolPath("edit_file", args.path, ctx);
    if ("error" in target) return fail(target.error);
    const { abs, shown } = target;
    const problem = editArgsProblem(args);
    if (problem) return fail(problem);
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
    const edit = applyEdit(text, args, shown);
    if ("error" in edit) return fail(edit.error);
    const { next, n, loose } = edit;
    try {
      Deno.writeTextFileSync(abs, next);
    } catch (e) {
      return fail(`Cannot write ${shown}: ${(e as Error).message}`);
    }
    return ok(`Edited ${shown}: replaced ${n} occurrence${n === 1 ? "" : "s"}${loose}.`, {
      path: shown,
      replacements: n,
      diff: lineDiff(text, next),
      file: stampOf(abs),
    });
  },
});
