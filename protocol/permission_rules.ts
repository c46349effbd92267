/**
 * Permission rules by pattern: `tool` or `tool(pattern)` with allow, ask or deny, kept
 * per task, per project and globally. What a pattern is matched against depends on the
 * call:
 * - a command (`exec_command(npm test *)`): the command's words, part by part — a
 *   compound command (`a && b`, `;`, `|`, `$(…)`, backticks, `sh -c '…'`) is split, and
 *   every part is judged on its own, never by the first word;
 * - file paths (`write_file(src/**)`): a glob over the workspace-relative path (`*` one
 *   segment's characters, `**` any depth);
 * - a URL (`webfetch(domain:docs.deno.com)`): the host or one of its subdomains.
 * A deny anywhere wins, then ask, then allow; allowing a command needs every part of it
 * allowed. Pure: the server judges calls with it, the UI suggests and checks rules.
 */
import { arr, obj, oneOf, type Schema, str } from "./schema.ts";

export type RulePolicy = "allow" | "ask" | "deny";
export const RULE_POLICIES = ["allow", "ask", "deny"] as const;

export interface PermissionRule {
  /** `tool` or `tool(pattern)`. */
  rule: string;
  policy: RulePolicy;
}

export type RuleScope = "task" | "project" | "global";

/** What a call offers to patterns. */
export type RuleSubject =
  | { kind: "command"; command: string }
  | { kind: "paths"; paths: string[] }
  | { kind: "url"; url: string }
  | { kind: "none" };

const RULE_RE = /^([A-Za-z0-9_.-]+)(?:\(([\s\S]*)\))?$/;

/** The rule's tool and pattern, or null when it is not a rule. */
export function parseRule(rule: string): { tool: string; pattern: string | null } | null {
  const m = RULE_RE.exec(rule.trim());
  if (!m) return null;
  const pattern = m[2]?.trim();
  if (m[2] !== undefined && !pattern) return null;
  return { tool: m[1], pattern: pattern ?? null };
}

// ---------------------------------------------------------------------------------
// Shell words

/** Words that run the command after them (their own options skipped). */
const WRAPPERS = new Set([
  "sudo",
  "env",
  "command",
  "exec",
  "nohup",
  "time",
  "nice",
  "timeout",
  "xargs",
  "builtin",
  "doas",
  "stdbuf",
]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish"]);

/**
 * A command line split into simple commands, each a list of words (quotes removed).
 * Commands inside `$(…)`, backticks, `<(…)` and `sh -c '…'` / `eval` become parts of
 * their own; the word holding a substitution keeps a `$(…)` placeholder.
 */
export function splitCommand(input: string, depth = 0): string[][] {
  const parts: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endPart = () => {
    endWord();
    if (words.length) parts.push(words);
    words = [];
  };
  const nested = (inner: string) => {
    if (depth < 8) parts.push(...splitCommand(inner, depth + 1));
  };
  /** The index of the `)` closing the `(` before `from`, or the end. */
  const closeParen = (from: number): number => {
    let level = 1;
    let quote = "";
    for (let j = from; j < input.length; j++) {
      const c = input[j];
      if (quote) {
        if (c === "\\" && quote === '"') j++;
        else if (c === quote) quote = "";
      } else if (c === "\\") j++;
      else if (c === "'" || c === '"') quote = c;
      else if (c === "(") level++;
      else if (c === ")" && --level === 0) return j;
    }
    return input.length;
  };
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    const two = input.slice(i, i + 2);
    if (c === "\\") {
      if (input[i + 1] === "\n") i += 2;
      else {
        word += input[i + 1] ?? "";
        inWord = true;
        i += 2;
      }
    } else if (c === "'") {
      const end = input.indexOf("'", i + 1);
      word += input.slice(i + 1, end < 0 ? input.length : end);
      inWord = true;
      i = end < 0 ? input.length : end + 1;
    } else if (c === '"') {
      // Double quotes still expand substitutions.
      let j = i + 1;
      while (j < input.length && input[j] !== '"') {
        if (input[j] === "\\" && j + 1 < input.length) {
          word += input[j + 1];
          j += 2;
        } else if (input.startsWith("$(", j)) {
          const end = closeParen(j + 2);
          nested(input.slice(j + 2, end));
          word += "$(…)";
          j = end + 1;
        } else if (input[j] === "`") {
          const end = input.indexOf("`", j + 1);
          nested(input.slice(j + 1, end < 0 ? input.length : end));
          word += "$(…)";
          j = end < 0 ? input.length : end + 1;
        } else word += input[j++];
      }
      inWord = true;
      i = j + 1;
    } else if (two === "$(" || two === "<(" || two === ">(") {
      const end = closeParen(i + 2);
      nested(input.slice(i + 2, end));
      word += "$(…)";
      inWord = true;
      i = end + 1;
    } else if (c === "`") {
      const end = input.indexOf("`", i + 1);
      nested(input.slice(i + 1, end < 0 ? input.length : end));
      word += "$(…)";
      inWord = true;
      i = end < 0 ? input.length : end + 1;
    } else if (c === "(" && !inWord) {
      // A subshell: its commands are parts like any other.
      const end = closeParen(i + 1);
      endPart();
      nested(input.slice(i + 1, end));
      i = end + 1;
    } else if (
      two === "&&" || two === "||" || two === "|&" || c === ";" || c === "|" || c === "&" ||
      c === "\n" || c === ")"
    ) {
      // `&>` and `>&` are redirections, not separators.
      if (c === "&" && input[i + 1] === ">") {
        word += "&>";
        inWord = true;
        i += 2;
        continue;
      }
      if (c === "&" && word.endsWith(">")) {
        word += "&";
        i++;
        continue;
      }
      endPart();
      i += two === "&&" || two === "||" || two === "|&" ? 2 : 1;
    } else if (c === " " || c === "\t") {
      endWord();
      i++;
    } else if (c === "#" && !inWord) {
      const nl = input.indexOf("\n", i);
      i = nl < 0 ? input.length : nl;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  endPart();
  // `sh -c '…'` and `eval …` run their argument as a command line of its own.
  for (const p of [...parts]) {
    const w = effectiveWords(p);
    const k = w.findIndex((x) => x === "-c" || /^-[a-z]*c$/.test(x));
    if (SHELLS.has(baseName(w[0] ?? "")) && k > 0 && w[k + 1] !== undefined) nested(w[k + 1]);
    if (w[0] === "eval" && w.length > 1) nested(w.slice(1).join(" "));
  }
  return parts;
}

const baseName = (w: string) => w.slice(w.lastIndexOf("/") + 1);

/**
 * The words that decide what a simple command runs: leading `VAR=value` assignments and
 * wrappers such as `sudo`, `env`, `timeout 5` are skipped, so a rule about `git push`
 * also sees `sudo env GIT_DIR=x git push`.
 */
export function effectiveWords(words: readonly string[]): string[] {
  let i = 0;
  while (i < words.length) {
    const w = words[i];
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) i++;
    else if (WRAPPERS.has(baseName(w))) {
      i++;
      // The wrapper's own options and arguments (a duration, a user).
      while (i < words.length && (words[i].startsWith("-") || /^\d+[smhd]?$/.test(words[i]))) {
        i++;
      }
    } else break;
  }
  return words.slice(i);
}

/** `*` (alone: any number of words; in a word: any characters) and `?` in a word. */
function wordGlob(p: string): RegExp {
  const body = p.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`, "s");
}

/** Whether the command words match the pattern words. */
function matchWords(pattern: readonly string[], words: readonly string[]): boolean {
  if (!pattern.length) return !words.length;
  const [p, ...rest] = pattern;
  if (p === "*") {
    for (let k = 0; k <= words.length; k++) if (matchWords(rest, words.slice(k))) return true;
    return false;
  }
  if (!words.length) return false;
  const hit = p.includes("*") || p.includes("?") ? wordGlob(p).test(words[0]) : p === words[0];
  return hit && matchWords(rest, words.slice(1));
}

/**
 * Whether a simple command (its words) matches a command pattern (`npm test *`). With
 * `loose` (deny and ask rules) a program named by a path matches its bare name too
 * (`/usr/bin/git push` is `git push`); an allow never does, so a program the model put
 * at `/tmp/x/git` is not allowed by `git *`.
 */
export function commandMatches(pattern: string, words: readonly string[], loose = true): boolean {
  const pw = splitCommand(pattern)[0] ?? [];
  const w = effectiveWords(words);
  if (!pw.length || !w.length) return false;
  const named = loose && baseName(w[0]) === pw[0] ? [pw[0], ...w.slice(1)] : w;
  return matchWords(pw, named);
}

// ---------------------------------------------------------------------------------
// Paths and URLs

/** A path glob: `**` any depth, `*` within a segment, `?` one character. */
export function pathMatches(pattern: string, path: string): boolean {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      re += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  const clean = path.replace(/^\.\//, "");
  // `src` names the folder and everything in it.
  return new RegExp(`^${re}$`, "s").test(clean) ||
    (!/[*?]/.test(pattern) && clean.startsWith(pattern.replace(/\/$/, "") + "/"));
}

function urlMatches(pattern: string, url: string): boolean {
  if (!pattern.startsWith("domain:")) return false;
  const want = pattern.slice(7).trim().toLowerCase().replace(/^\*\./, "");
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === want || host.endsWith(`.${want}`);
}

// ---------------------------------------------------------------------------------
// Judging

/**
 * Tools that do the same thing another way: a deny or ask rule naming one applies to
 * all of its family, so `write_file(secrets/**)` deny is not stepped around with
 * edit_file or apply_patch, nor `exec_command(git push *)` with background_bash. An
 * allow stays with the tool it names.
 */
const FAMILIES: readonly (readonly string[])[] = [
  ["write_file", "edit_file", "apply_patch", "delete_file"],
  ["exec_command", "background_bash"],
];
const sameFamily = (a: string, b: string) =>
  a === b || FAMILIES.some((f) => f.includes(a) && f.includes(b));

const RANK: Record<RulePolicy, number> = { allow: 1, ask: 2, deny: 3 };
const stronger = (a: RulePolicy | null, b: RulePolicy | null) =>
  !a ? b : !b ? a : RANK[a] >= RANK[b] ? a : b;

export interface ScopedRule extends PermissionRule {
  scope: RuleScope;
}

export interface RuleVerdict {
  policy: RulePolicy;
  /** The rule that decided (for a deny or ask: the strongest one met). */
  rule: ScopedRule;
}

/**
 * What the rules say about one call: deny if any rule denies the call or a part of it,
 * ask likewise, allow only when every part is allowed; null when the rules say nothing.
 */
export function judgeRules(
  rules: readonly ScopedRule[],
  tool: string,
  subject: RuleSubject,
): RuleVerdict | null {
  const mine = rules.map((r) => ({ r, p: parseRule(r.rule) })).filter((x) =>
    x.p && (x.p.tool === tool || (x.r.policy !== "allow" && sameFamily(x.p.tool, tool)))
  ) as { r: ScopedRule; p: { tool: string; pattern: string | null } }[];
  if (!mine.length) return null;
  // The strongest rule met by one unit (a command part, a path, the URL).
  const unitVerdict = (
    test: (pattern: string, policy: RulePolicy) => boolean,
  ): RuleVerdict | null => {
    let best: RuleVerdict | null = null;
    for (const { r, p } of mine) {
      if (p.pattern === null || !test(p.pattern, r.policy)) continue;
      if (!best || stronger(best.policy, r.policy) !== best.policy) {
        best = { policy: r.policy, rule: r };
      }
    }
    return best;
  };
  let whole: RuleVerdict | null = null;
  for (const { r, p } of mine) {
    if (p.pattern === null && (!whole || stronger(whole.policy, r.policy) !== whole.policy)) {
      whole = { policy: r.policy, rule: r };
    }
  }
  let units: (RuleVerdict | null)[] = [];
  if (subject.kind === "command") {
    const parts = splitCommand(subject.command);
    units = parts.map((words) =>
      unitVerdict((pat, policy) => commandMatches(pat, words, policy !== "allow"))
    );
  } else if (subject.kind === "paths") {
    units = subject.paths.map((path) => unitVerdict((pat) => pathMatches(pat, path)));
  } else if (subject.kind === "url") {
    units = [unitVerdict((pat) => urlMatches(pat, subject.url))];
  }
  const strongestUnit = units.reduce<RuleVerdict | null>(
    (a, u) => (u && (!a || stronger(a.policy, u.policy) !== a.policy) ? u : a),
    null,
  );
  for (const level of ["deny", "ask"] as const) {
    if (whole?.policy === level) return whole;
    if (strongestUnit?.policy === level) return strongestUnit;
  }
  if (whole?.policy === "allow") return whole;
  // Allowed by pattern only when every part is.
  if (units.length && units.every((u) => u?.policy === "allow")) return units[0];
  return null;
}

/**
 * The rule "Always allow" offers for a command: its program and subcommand with `*`
 * (`npm test *`, `git push *`), or null for a compound command or none at all.
 */
export function suggestCommandRule(tool: string, command: string): string | null {
  const parts = splitCommand(command);
  if (parts.length !== 1) return null;
  const w = effectiveWords(parts[0]);
  if (!w.length || w[0].includes("$(")) return null;
  const prog = w[0];
  const sub = w[1] && /^[A-Za-z][\w:.-]*$/.test(w[1]) && !w[1].includes("/") ? ` ${w[1]}` : "";
  return `${tool}(${prog}${sub} *)`;
}

// ---------------------------------------------------------------------------------
// Ops (Settings → Rules)

const ruleText = str({ min: 1, max: 500 });
export const ruleSchema = obj({ rule: ruleText, policy: oneOf(RULE_POLICIES) });
const taskIdSchema = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });

export interface RulesView {
  global: PermissionRule[];
  /** Per project folder (absolute path). */
  projects: { path: string; name: string; rules: PermissionRule[] }[];
  /** The task asked for (`taskId`), or null when none was asked or it does not exist. */
  task: { id: string; title: string; rules: PermissionRule[] } | null;
}

export const RULES_OP_ARGS = {
  /** With `taskId`, the view also holds that task's own rules. */
  "rules.get": obj({ "taskId?": taskIdSchema }),
  /**
   * Replaces the rules of one scope: `projectPath` names the project for "project",
   * `taskId` the task for "task" (and neither is taken for another scope).
   */
  "rules.set": obj({
    scope: oneOf(["global", "project", "task"] as const),
    "projectPath?": str({ min: 1, max: 4096 }),
    "taskId?": taskIdSchema,
    rules: arr(ruleSchema, 200),
  }),
} satisfies Record<string, Schema>;

export interface RulesOpResults {
  "rules.get": RulesView;
  "rules.set": RulesView;
}
