/**
 * `grep`: search file contents with a JavaScript regular expression.
 *
 * Matching is per line (a match never spans lines). Binary files (a NUL byte in the
 * first 8 KB) and files over 2 MB are skipped and counted; symlinks are not followed.
 * Files are read as bytes with synchronous calls in time slices (see walk.ts); a whole
 * file is tested once and only files that match are split into lines.
 */
import { fail, ok } from "./types.ts";
import { defineTool } from "./define.ts";
import type { ToolDetails } from "../protocol/tool_details.ts";
import { bool, doc, int, obj } from "../protocol/schema.ts";
import { text } from "./args.ts";
import { displayPath, hiddenBelow } from "./paths.ts";
import { compileGlob, GlobError } from "./glob.ts";
import {
  IGNORED_NOTE,
  Pacer,
  readSearchText,
  resolveSearchRoot,
  searchScope,
  walkBatches,
} from "./walk.ts";

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
const MAX_CONTEXT = 5;
const MAX_LINE = 500;
const MAX_OUTPUT = 64 * 1024;
const LARGE_NAMES_SHOWN = 5;

/** Compiles the user's regex: Unicode mode when the pattern allows it; `(?i)` prefix = ignore case. */
export function compileRegex(pattern: string, ignoreCase: boolean): RegExp {
  let p = pattern;
  if (p.startsWith("(?i)")) {
    p = p.slice(4);
    ignoreCase = true;
  }
  const flags = "m" + (ignoreCase ? "i" : "");
  try {
    return new RegExp(p, flags + "u");
  } catch {
    return new RegExp(p, flags); // throws the SyntaxError the caller reports
  }
}

function cutLine(line: string, re: RegExp | null): string {
  if (line.length <= MAX_LINE) return line;
  const at = re ? Math.max(0, line.search(re)) : 0;
  const start = at > MAX_LINE - 100 ? at - 100 : 0;
  return (start ? "…" : "") + line.slice(start, start + MAX_LINE) +
    `… [line has ${line.length} chars]`;
}

interface Counts {
  matches: number;
  files: number;
  searched: number;
  skippedBinary: number;
  skippedLarge: number;
  unreadable: number;
}

export const grep = defineTool<{
  pattern: string;
  path?: string;
  include?: string;
  ignore_case?: boolean;
  limit?: number;
  context?: number;
  include_ignored?: boolean;
}, ToolDetails<"grep">>({
  name: "grep",
  description: "Search file contents with a JavaScript regular expression (per line). " +
    "Returns `path:line: text` grouped by file. Use `include` to filter files by glob " +
    "(`*.ts` matches file names anywhere; a pattern with `/` matches the path), `context` " +
    "for surrounding lines. Skips .git, node_modules, target, dist, binary files and files " +
    "over 2 MB (and says how many were skipped). " + IGNORED_NOTE,
  args: obj({
    pattern: text("JavaScript regular expression, e.g. fn\\s+main"),
    "path?": text("File or directory to search; default: workspace"),
    "include?": text("Glob filter for files, e.g. *.{ts,tsx}"),
    "ignore_case?": doc(bool, "Case-insensitive matching"),
    "limit?": doc(
      int({ min: 1, max: MAX_LIMIT }),
      `Maximum matching lines (default ${DEFAULT_LIMIT})`,
    ),
    "context?": doc(
      int({ min: 0, max: MAX_CONTEXT }),
      "Lines of context before and after each match (default 0)",
    ),
    "include_ignored?": doc(bool, "Also search ignored files and node_modules, target, dist"),
  }),
  kind: "read",
  async execute(args, ctx) {
    if (args.pattern === "") {
      return fail("grep needs a non-empty `pattern` (a JavaScript regular expression).");
    }
    const limit = args.limit ?? DEFAULT_LIMIT;
    const context = args.context ?? 0;
    let re: RegExp;
    try {
      re = compileRegex(args.pattern, args.ignore_case === true);
    } catch (e) {
      const why = (e as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, "");
      return fail(
        `Invalid regular expression /${args.pattern}/: ${why}. The pattern is a JavaScript ` +
          "regex; escape special characters ( ) [ ] { } . * + ? | \\ with \\.",
      );
    }
    let include: ((rel: string, name: string) => boolean) | null = null;
    if (args.include !== undefined) {
      if (!args.include.trim()) {
        return fail("include must be a non-empty glob string, e.g. *.ts");
      }
      try {
        const g = compileGlob(args.include).regex;
        include = args.include.includes("/") ? (rel) => g.test(rel) : (_, name) => g.test(name);
      } catch (e) {
        if (e instanceof GlobError) return fail(`Invalid include glob: ${e.message}.`);
        throw e;
      }
    }
    const sr = await resolveSearchRoot(args.path, ctx.workspace, ctx.roots);
    if ("error" in sr) return fail(sr.error);

    const c: Counts = {
      matches: 0,
      files: 0,
      searched: 0,
      skippedBinary: 0,
      skippedLarge: 0,
      unreadable: 0,
    };
    const large: string[] = [];
    const out: string[] = [];
    let outBytes = 0;
    let truncated = false as false | "limit" | "output";
    const pacer = new Pacer(ctx.signal, sr.root);

    /** Searches one file; returns false once the search should stop. */
    const searchFile = (abs: string): boolean => {
      const text = readSearchText(abs);
      if (text === "large") {
        c.skippedLarge++;
        if (large.length < LARGE_NAMES_SHOWN) large.push(displayPath(abs, ctx.workspace));
        return true;
      }
      if (text === "binary") return (c.skippedBinary++, true);
      if (text === "unreadable") return (c.unreadable++, true);
      c.searched++;
      if (!re.test(text)) return true;
      const lines = text.split("\n");
      const hits: number[] = [];
      for (let i = 0; i < lines.length; i++) {
        const l = lines[i];
        if (l.endsWith("\r")) lines[i] = l.slice(0, -1);
        if (re.test(lines[i])) hits.push(i);
      }
      if (hits.length === 0) return true;
      if (c.matches >= limit) return (truncated = "limit", false);
      const shown = displayPath(abs, ctx.workspace);
      const take = hits.slice(0, limit - c.matches);
      const isHit = new Set(take);
      const block: string[] = [];
      let prevEnd = -1;
      let shownHits = 0;
      let size = outBytes;
      emit: for (const h of take) {
        const from = Math.max(0, h - context, prevEnd + 1);
        const rows: [string, boolean][] = context > 0 && prevEnd >= 0 && from > prevEnd + 1
          ? [["--", false]]
          : [];
        const to = Math.min(lines.length - 1, h + context);
        for (let i = from; i <= to; i++) {
          if (i === lines.length - 1 && lines[i] === "" && !isHit.has(i)) break;
          const sep = isHit.has(i) ? ":" : "-";
          const text = cutLine(lines[i], isHit.has(i) ? re : null);
          rows.push([`${shown}${sep}${i + 1}${sep}${text ? " " + text : ""}`, sep === ":"]);
        }
        for (const [row, hit] of rows) {
          if (size + row.length + 1 > MAX_OUTPUT) {
            truncated = "output";
            break emit;
          }
          size += row.length + 1;
          block.push(row);
          if (hit) shownHits++;
        }
        prevEnd = Math.max(prevEnd, to);
      }
      if (block.length) {
        out.push(block.join("\n"));
        outBytes = size + 1;
        c.matches += shownHits;
        c.files++;
      }
      if (truncated) return false;
      if (take.length < hits.length) return (truncated = "limit", false);
      return true;
    };

    try {
      if (!sr.isDir) searchFile(sr.root);
      else {
        walking: for await (
          const batch of walkBatches(sr.root, {
            signal: ctx.signal,
            pacer,
            skipPaths: hiddenBelow(sr.root, ctx.hidden ?? []),
            ...searchScope(sr.root, ctx, args.include_ignored),
            onError: () => c.unreadable++,
          })
        ) {
          for (const e of batch) {
            if (e.type !== "file") continue;
            if (include && !include(e.path, e.name)) continue;
            const t = pacer.tick();
            if (t) await t;
            if (!searchFile(`${sr.root}/${e.path}`)) break walking;
          }
        }
      }
    } catch (e) {
      if (ctx.signal.aborted) return fail("grep was stopped.", { stopped: true });
      return fail(`Cannot search ${sr.shown}: ${(e as Error).message}`);
    }

    const notes: string[] = [];
    if (out.length === 0 && !truncated) {
      notes.push(`No matches for /${args.pattern}/ in ${sr.shown} (${c.searched} files searched).`);
    }
    if (truncated === "limit") {
      notes.push(
        `(truncated: stopped after ${c.matches} matching lines; more matches exist — narrow ` +
          `the pattern, path or include${
            limit < MAX_LIMIT ? `, or raise limit (max ${MAX_LIMIT})` : ""
          })`,
      );
    } else if (truncated === "output") {
      notes.push(
        `(truncated: output reached ${MAX_OUTPUT / 1024} KB after ${c.matches} matching lines; ` +
          "narrow the pattern, path or include, or use less context)",
      );
    }
    const skipped: string[] = [];
    if (c.skippedBinary) {
      skipped.push(`${c.skippedBinary} binary file${c.skippedBinary === 1 ? "" : "s"}`);
    }
    if (c.skippedLarge) {
      skipped.push(
        `${c.skippedLarge} file${c.skippedLarge === 1 ? "" : "s"} over 2 MB (${large.join(", ")}${
          c.skippedLarge > large.length ? ", …" : ""
        })`,
      );
    }
    if (c.unreadable) skipped.push(`${c.unreadable} unreadable file(s) or folder(s)`);
    if (skipped.length) notes.push(`(skipped ${skipped.join(" and ")})`);
    return ok([...out, ...(notes.length ? [notes.join("\n")] : [])].join("\n\n"), {
      ...c,
      truncated: truncated !== false,
      ...(truncated ? { truncatedBy: truncated } : {}),
    });
  },
});
