/**
 * The patterns of one ignore file (`.gitignore`, `.ignore`, git's excludes), as git reads
 * them: `#` comments, `!` negation (the last matching line decides), a trailing `/` for
 * folders only, a `/` at the start or in the middle anchors the pattern to the file's
 * folder, `**` spans folders, `*` `?` `[a-z]` stay within one name, `\` escapes.
 *
 * @example
 * ```ts
 * const rules = gitIgnore("build/\n*.log\n!keep.log");
 * rules.test("src/build", true);  // true: ignored
 * rules.test("keep.log", false);  // false: brought back
 * rules.test("app.ts", false);    // null: no line says anything
 * ```
 */

export interface GitIgnore {
  /**
   * Whether `rel` (relative to the file's folder, `/`-separated) is ignored: true, false
   * when a negated line brings it back, null when no line matches.
   */
  test(rel: string, isDir: boolean): boolean | null;
}

interface Rule {
  re: RegExp;
  negate: boolean;
  dirOnly: boolean;
  /** Ends in `/**`: git counts the folder itself as ignored too (not a file of that name). */
  selfDir: boolean;
}

export function gitIgnore(text: string): GitIgnore {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const rule = compileLine(raw);
    if (rule) rules.push(rule);
  }
  return {
    test(rel, isDir) {
      for (let i = rules.length - 1; i >= 0; i--) {
        const r = rules[i];
        if (r.dirOnly && !isDir) continue;
        if (r.re.test(rel) || (isDir && r.selfDir && r.re.test(rel + "/"))) return !r.negate;
      }
      return null;
    },
  };
}

function compileLine(raw: string): Rule | null {
  // Trailing spaces end a line unless escaped with a backslash.
  let line = raw.replace(/(?<!\\)\s+$/, "");
  if (!line || line.startsWith("#")) return null;
  let negate = false;
  if (line.startsWith("!")) {
    negate = true;
    line = line.slice(1);
  }
  let dirOnly = false;
  if (line.endsWith("/") && !line.endsWith("\\/")) {
    dirOnly = true;
    line = line.replace(/\/+$/, "");
  }
  if (!line) return null;
  const anchored = line.includes("/");
  if (line.startsWith("/")) line = line.slice(1);
  try {
    const body = globBody(line);
    const re = new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`);
    return { re, negate, dirOnly, selfDir: /.\/\*\*$/.test(line) };
  } catch {
    return null; // a line git would not match either (an unclosed or broken class)
  }
}

const ESCAPE = /[\\^$.*+?()[\]{}|/]/g;

/** The regex source of a glob line: `**` across folders, the rest within one name. */
function globBody(p: string): string {
  const segs = p.split("/");
  let out = "";
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    const last = i === segs.length - 1;
    if (seg === "**") {
      // `**/x` at any depth, `x/**` everything inside, `a/**/b` zero or more folders.
      out += last ? ".*" : "(?:.*/)?";
      continue;
    }
    out += name(seg) + (last ? "" : "/");
  }
  return out;
}

function name(seg: string): string {
  let out = "";
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i];
    if (c === "\\" && i + 1 < seg.length) out += seg[++i].replace(ESCAPE, "\\$&");
    else if (c === "*") {
      while (seg[i + 1] === "*") i++;
      out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = seg.indexOf("]", i + 2);
      if (end < 0) throw new Error("unclosed class");
      let body = seg.slice(i + 1, end);
      if (body.startsWith("!")) body = "^" + body.slice(1);
      out += `[${body}]`;
      i = end;
    } else out += c.replace(ESCAPE, "\\$&");
  }
  return out;
}
