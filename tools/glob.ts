/**
 * `glob`: find files by path pattern, newest first.
 *
 * Pattern syntax (compiled once to a RegExp by {@link compileGlob}):
 * `*` any characters except `/`; `**` as a whole segment = any number of directories
 * (including none); `?` one character except `/`; `[abc]`, `[a-z]`, `[!x]`/`[^x]`
 * classes; `{a,b}` alternatives (not nested); `\x` escapes x. Dotfiles match like any
 * other name (unlike a POSIX shell). Extglob (`+(…)`, `@(…)`, `!(…)`, `?(…)`, `*(…)`),
 * nested braces and leading `!` negation are rejected with an error naming them.
 */
import { isAbsolute } from "../lib/path.ts";
import { fail, ok } from "./types.ts";
import { defineTool } from "./define.ts";
import type { ToolDetails } from "../protocol/tool_details.ts";
import { bool, doc, int, obj } from "../protocol/schema.ts";
import { text } from "./args.ts";
import { hiddenBelow, hiddenPath, outsideRoots } from "./paths.ts";
import { IGNORED_NOTE, Pacer, resolveSearchRoot, searchScope, walkBatches } from "./walk.ts";

const DEFAULT_LIMIT = 200;
const MAX_LIMIT = 2000;

/** A glob the compiler refuses, with a message naming the construct. */
export class GlobError extends Error {}

export interface CompiledGlob {
  regex: RegExp;
  /** Leading path segments without any glob syntax (e.g. `src/lib` for `src/lib/**`). */
  literalPrefix: string;
}

const SPECIAL = /[\\^$.*+?()[\]{}|/]/g;
const esc = (s: string) => s.replace(SPECIAL, "\\$&");

function compileClass(p: string, i: number): [string, number] {
  // p[i] === "["; returns [regex source, index after the closing "]"].
  let j = i + 1;
  let negate = false;
  if (p[j] === "!" || p[j] === "^") {
    negate = true;
    j++;
  }
  let body = "";
  let firstChar = true;
  while (j < p.length && (p[j] !== "]" || firstChar)) {
    let c = p[j];
    if (c === "\\" && j + 1 < p.length) c = p[++j];
    if (c === "/") throw new GlobError("a character class cannot contain `/`");
    if (p[j + 1] === "-" && p[j + 2] !== undefined && p[j + 2] !== "]") {
      const hi = p[j + 2] === "\\" ? p[j + 3] : p[j + 2];
      if (hi === undefined) break;
      if (hi < c) throw new GlobError(`invalid range \`${c}-${hi}\` in a character class`);
      body += `${esc(c)}-${esc(hi)}`.replace(/\\-/g, "-");
      j += p[j + 2] === "\\" ? 4 : 3;
    } else {
      body += c === "-" ? "\\-" : esc(c);
      j++;
    }
    firstChar = false;
  }
  if (j >= p.length) {
    throw new GlobError(`unclosed character class \`${p.slice(i)}\` (escape a literal [ as \\[)`);
  }
  return [negate ? `[^/${body}]` : `[${body}]`, j + 1];
}

/** Index after the character class starting at p[i] === "[", or -1 when unclosed. */
function classEnd(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === "!" || p[j] === "^") j++;
  if (p[j] === "]") j++;
  for (; j < p.length; j++) {
    if (p[j] === "\\") j++;
    else if (p[j] === "]") return j + 1;
  }
  return -1;
}

const MAX_EXPANSIONS = 256;

/** Expands `{a,b}` groups (not nested) into whole alternative patterns. */
function expandBraces(p: string): string[] {
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") i++;
    else if (c === "[") {
      const end = classEnd(p, i);
      if (end > 0) i = end - 1;
    } else if (c === "}") throw new GlobError("unmatched `}` (escape a literal } as \\})");
    else if (c === "{") {
      const alts: string[] = [];
      let start = i + 1;
      let j = start;
      for (; j < p.length && p[j] !== "}"; j++) {
        if (p[j] === "\\") j++;
        else if (p[j] === "{") throw new GlobError("nested braces `{…{…}…}` are not supported");
        else if (p[j] === ",") {
          alts.push(p.slice(start, j));
          start = j + 1;
        }
      }
      if (j >= p.length) throw new GlobError(`unclosed brace in \`${p.slice(i)}\``);
      alts.push(p.slice(start, j));
      const head = p.slice(0, i);
      const rest = expandBraces(p.slice(j + 1));
      const out: string[] = [];
      for (const a of alts) for (const r of rest) out.push(head + a + r);
      if (out.length > MAX_EXPANSIONS) {
        throw new GlobError(`the braces expand to more than ${MAX_EXPANSIONS} alternatives`);
      }
      return out;
    }
  }
  return [p];
}

function compileSegment(p: string): string {
  let out = "";
  for (let i = 0; i < p.length;) {
    const c = p[i];
    if ("+@!?*".includes(c) && p[i + 1] === "(") {
      throw new GlobError(`extglob \`${c}(…)\` is not supported; use {a,b} alternatives`);
    }
    if (c === "\\") {
      if (i + 1 >= p.length) throw new GlobError("the pattern ends with a lone `\\`");
      out += esc(p[i + 1]);
      i += 2;
    } else if (c === "*") {
      while (p[i] === "*") i++; // `a**b` inside a segment behaves like `*`
      out += "[^/]*";
    } else if (c === "?") {
      out += "[^/]";
      i++;
    } else if (c === "[") {
      const [src, next] = compileClass(p, i);
      out += src;
      i = next;
    } else {
      out += esc(c);
      i++;
    }
  }
  return out;
}

const GLOB_CHARS = /[*?[\]{}\\]/;

/** Compiles one brace-free alternative; returns its regex source and literal segments. */
function compileAlternative(p: string): { src: string; literal: string[] } {
  // `/` inside a class would be split apart below; classes never match `/` anyway.
  const segs = p.split("/").filter((s) => s !== "" && s !== ".");
  if (segs.length === 0) throw new GlobError("the pattern names no files");
  if (segs.includes("..")) {
    throw new GlobError("`..` segments are not supported; set `path` to the directory instead");
  }
  let literal = 0;
  while (literal < segs.length - 1 && !GLOB_CHARS.test(segs[literal])) literal++;
  let src = "";
  for (let i = 0; i < segs.length; i++) {
    const last = i === segs.length - 1;
    if (segs[i] === "**") {
      // `**/` = zero or more whole directories; a trailing `/**` = the path and all below it.
      if (!last) src += "(?:.*/)?";
      else src = i === 0 ? ".*" : src.slice(0, -1) + "(?:/.*)?";
      continue;
    }
    src += compileSegment(segs[i]) + (last ? "" : "/");
  }
  return { src, literal: segs.slice(0, literal) };
}

/** Compiles a glob matched against `/`-separated relative paths. Throws GlobError. */
export function compileGlob(pattern: string): CompiledGlob {
  const p = pattern.trim();
  if (!p) throw new GlobError("the pattern is empty");
  if (p.startsWith("!") && p[1] !== "(") {
    throw new GlobError("negated patterns (`!…`) are not supported; narrow the pattern instead");
  }
  const alts = expandBraces(p).map(compileAlternative);
  // The walk can start at the directory all alternatives share.
  let common = alts[0].literal;
  for (const a of alts) {
    let k = 0;
    while (k < common.length && k < a.literal.length && common[k] === a.literal[k]) k++;
    common = common.slice(0, k);
  }
  const src = alts.length === 1 ? alts[0].src : `(?:${alts.map((a) => a.src).join("|")})`;
  return { regex: new RegExp(`^${src}$`), literalPrefix: common.join("/") };
}

export const glob = defineTool<{
  pattern: string;
  path?: string;
  limit?: number;
  include_ignored?: boolean;
}, ToolDetails<"glob">>({
  name: "glob",
  description: "Find files whose path matches a glob pattern, newest first (by modification " +
    "time). `*` matches within one directory level, `**` any number of levels, `?` one " +
    "character, `[a-z]` a class, `{ts,tsx}` alternatives. Example: `src/**/*.{ts,tsx}`. " +
    "The pattern is relative to `path` (default: the workspace root). .git, node_modules, " +
    "target and dist are skipped unless `path` points inside them. " + IGNORED_NOTE,
  args: obj({
    pattern: text("Glob pattern, e.g. **/*.test.ts"),
    "path?": text("Directory to search in; default: workspace root"),
    "limit?": doc(
      int({ min: 1, max: MAX_LIMIT }),
      `Maximum number of paths to return (default ${DEFAULT_LIMIT})`,
    ),
    "include_ignored?": doc(bool, "Also find ignored files and node_modules, target, dist"),
  }),
  kind: "read",
  async execute(args, ctx) {
    if (!args.pattern.trim()) return fail("glob needs a non-empty `pattern`, e.g. `**/*.ts`.");
    const limit = args.limit ?? DEFAULT_LIMIT;
    const sr = await resolveSearchRoot(args.path, ctx.workspace, ctx.roots);
    if ("error" in sr) return fail(sr.error);
    const { root, shown: shownRoot } = sr;
    if (!sr.isDir) return fail(`${shownRoot} is not a directory; \`path\` must be a directory.`);
    let pattern = args.pattern.trim();
    if (isAbsolute(pattern)) {
      // An absolute pattern is accepted when it lies under the search directory.
      if (!pattern.startsWith(root + "/")) {
        return fail(
          `The absolute pattern \`${pattern}\` is not under ${root}; use a relative pattern ` +
            "and set `path` to the directory to search.",
        );
      }
      pattern = pattern.slice(root.length + 1);
    }
    let compiled: CompiledGlob;
    try {
      compiled = compileGlob(pattern);
    } catch (e) {
      if (e instanceof GlobError) return fail(`Invalid glob \`${args.pattern}\`: ${e.message}.`);
      throw e;
    }

    const pacer = new Pacer(ctx.signal, root);
    const prefix = compiled.literalPrefix;
    const start = prefix ? `${root}/${prefix}` : root;
    // The literal prefix is entered directly: it must not lead out through a symlink.
    const roots = ctx.roots ?? [ctx.workspace];
    const denied = prefix
      ? outsideRoots(start, roots) ?? hiddenPath(start, ctx.hidden ?? [], roots)
      : null;
    if (denied) return fail(denied);
    const skipPaths = hiddenBelow(start, ctx.hidden ?? []);
    const found: { path: string; mtime: number }[] = [];
    let unreadable = 0;
    try {
      for await (
        const batch of walkBatches(start, {
          signal: ctx.signal,
          sorted: false, // ordered below, newest first
          pacer,
          skipPaths,
          ...searchScope(start, ctx, args.include_ignored),
          onError: () => unreadable++,
        })
      ) {
        for (const e of batch) {
          if (e.type === "dir") continue;
          const rel = prefix ? `${prefix}/${e.path}` : e.path;
          if (!compiled.regex.test(rel)) continue;
          let mtime = 0;
          try {
            mtime = Deno.lstatSync(`${root}/${rel}`).mtime?.getTime() ?? 0;
          } catch { /* vanished: keep it with an unknown (oldest) mtime */ }
          found.push({ path: shownRoot === "." ? rel : `${shownRoot}/${rel}`, mtime });
        }
        // The lstat calls above are synchronous: let the event loop and abort in between.
        const t = pacer.tick();
        if (t) await t;
      }
    } catch (e) {
      if (ctx.signal.aborted) return fail("glob was stopped.", { stopped: true });
      if ((e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) && prefix) {
        return ok(`No files match \`${args.pattern}\` in ${shownRoot} (${prefix} not found).`, {
          count: 0,
          truncated: false,
        });
      }
      return fail(`Cannot search ${shownRoot}: ${(e as Error).message}`);
    }
    found.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const shown = found.slice(0, limit);
    const lines = shown.map((f) => f.path);
    const more = found.length - shown.length;
    if (!found.length) lines.push(`No files match \`${args.pattern}\` in ${shownRoot}.`);
    if (more > 0) {
      lines.push(
        `(truncated: ${more} more match${more === 1 ? "" : "es"} not shown; ` +
          `narrow the pattern or path${
            limit < MAX_LIMIT ? `, or raise limit (max ${MAX_LIMIT})` : ""
          })`,
      );
    }
    if (unreadable) {
      lines.push(`(${unreadable} director${unreadable === 1 ? "y" : "ies"} could not be read)`);
    }
    return ok(lines.join("\n"), {
      count: found.length,
      shown: shown.length,
      truncated: more > 0,
      unreadableDirs: unreadable,
    });
  },
});
