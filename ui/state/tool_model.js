/**
 * Pure logic of the tool cards, no DOM: which card a tool gets, its
 * status, what its result's `meta` says, diff rows with line numbers, the exec output
 * without its status line, and the cheap previews shown on an approval card.
 *
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 * @typedef {import("../../protocol/diff.ts").DiffLine} DiffLine
 * @typedef {import("../../protocol/diff.ts").Hunk} Hunk
 * @typedef {import("../../protocol/diff.ts").LineDiff} LineDiff
 * @typedef {{t: " "|"+"|"-", text: string, old: number|null, new: number|null}
 *   | {t: "gap"}} DiffRow
 * @typedef {import("../../protocol/tool_details.ts").ToolName} ToolName
 * @typedef {import("../../protocol/domain.ts").RewindReason} RewindReason
 */
/**
 * What a result of one of the tools `N` may carry (protocol/tool_details.ts).
 * @template {ToolName} N
 * @typedef {import("../../protocol/tool_details.ts").DetailsOf<N>} DetailsOf
 */
import { commonEnds } from "../../protocol/diff.ts";
import { resultMeta } from "./tool_details.js";

export { resultMeta };

/** @type {Record<string, "read"|"list"|"change"|"exec"|"search"|"web">} */
const KINDS = {
  read_file: "read",
  list_dir: "list",
  write_file: "change",
  edit_file: "change",
  apply_patch: "change",
  delete_file: "change",
  exec_command: "exec",
  glob: "search",
  grep: "search",
  webfetch: "web",
  websearch: "web",
};

/**
 * The card family of a tool.
 * @param {string} name
 * @returns {"read"|"list"|"change"|"exec"|"search"|"web"|"other"}
 */
export function toolKind(name) {
  return Object.hasOwn(KINDS, name) ? KINDS[name] : "other";
}

/**
 * @param {Entry|undefined} result the tool entry, if any
 * @param {boolean} live whether the turn is running
 * @param {boolean} [waiting] whether the call waits for the user's approval
 * @returns {"running"|"waiting"|"done"|"failed"|"refused"|"none"}
 */
export function callStatus(result, live, waiting = false) {
  if (result) {
    // A call the user (or a rule) turned down did not fail: it was never carried out.
    if (resultMeta(result).refusal) return "refused";
    return result.status === "error" || result.parts[0]?.data?.isError === true ? "failed" : "done";
  }
  if (waiting) return "waiting";
  return live ? "running" : "none";
}

/** @param {Entry|undefined} result */
export const resultText = (result) => String(result?.parts[0]?.text ?? "");

/**
 * A well-formed `meta.diff` (of write_file, edit_file, or one file of apply_patch), or
 * null: stored results may come from older versions.
 * @param {{diff?: LineDiff}} meta
 * @returns {LineDiff|null}
 */
export function diffOf(meta) {
  const d = meta.diff;
  if (!d || typeof d !== "object" || !Array.isArray(d.hunks)) return null;
  if (!Number.isFinite(d.added) || !Number.isFinite(d.removed)) return null;
  return d;
}

/**
 * The files an apply_patch result lists, each with a usable diff.
 * @param {DetailsOf<"apply_patch">} meta
 * @returns {import("../../protocol/tool_details.ts").PatchedFile[]}
 */
export function patchFilesOf(meta) {
  if (!Array.isArray(meta.files)) return [];
  return meta.files.filter((f) => f && typeof f.path === "string" && diffOf(f) !== null);
}

const PATCH_HEADER = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm;

/**
 * The paths an apply_patch call names, read from its (possibly still streaming) input.
 * @param {unknown} input
 * @returns {string[]}
 */
export function patchTargets(input) {
  if (typeof input !== "string") return [];
  return [...input.matchAll(PATCH_HEADER)].map((m) => m[1].trim());
}

/**
 * Rows of a diff with old/new line numbers; a `gap` row between hunks.
 * @param {Hunk[]} hunks
 * @returns {DiffRow[]}
 */
export function diffRows(hunks) {
  /** @type {DiffRow[]} */
  const rows = [];
  for (const h of hunks) {
    if (rows.length) rows.push({ t: "gap" });
    let o = Number(h.oldStart) || 1, n = Number(h.newStart) || 1;
    for (const l of h.lines ?? []) {
      const text = String(l.text ?? "");
      if (l.t === "+") rows.push({ t: "+", text, old: null, new: n++ });
      else if (l.t === "-") rows.push({ t: "-", text, old: o++, new: null });
      else rows.push({ t: " ", text, old: o++, new: n++ });
    }
  }
  return rows;
}

const EXEC_STATUS = /^(Exit code: -?\d+|Timed out after |Stopped by the user|Killed by signal )/;

/**
 * Splits exec_command's result text into the command output and the trailing notes
 * (status line and remarks), which the card shows as badges and a footnote.
 * @param {string} text
 * @returns {{output: string, notes: string[]}}
 */
export function splitExecOutput(text) {
  const at = text.lastIndexOf("\n\n");
  const tail = at >= 0 ? text.slice(at + 2) : text;
  if (!EXEC_STATUS.test(tail)) return { output: text, notes: [] };
  const output = at >= 0 ? text.slice(0, at) : "";
  const notes = tail.split("\n").slice(1).filter(Boolean);
  return { output: output === "No output." ? "" : output, notes };
}

/**
 * A command's file changes that cannot be rewound (from the result's meta), and its
 * notes without the server's English line about them (the card translates them).
 * @param {string[]} notes
 * @param {DetailsOf<"exec_command">} meta
 * @returns {{notes: string[], unrewindable: RewindReason[]}}
 */
export function execRewindNotes(notes, meta) {
  const list = Array.isArray(meta.unrewindable) ? meta.unrewindable : [];
  if (!list.length) return { notes, unrewindable: [] };
  return { notes: notes.filter((n) => !n.startsWith("(Note: ")), unrewindable: list };
}

/**
 * The exec card's state badge: exit code, timed out, stopped or killed by a signal.
 * @param {DetailsOf<"exec_command">} meta
 * @returns {{key: string, params?: Record<string, unknown>, tone: "ok"|"bad"|"warn"}|null}
 */
export function exitBadge(meta) {
  if (meta.timedOut) return { key: "tool.timedOut", tone: "warn" };
  if (meta.stopped) return { key: "tool.stopped", tone: "warn" };
  if (typeof meta.signal === "string" && meta.signal) {
    return { key: "tool.signal", params: { signal: meta.signal }, tone: "bad" };
  }
  if (typeof meta.exitCode === "number") {
    return {
      key: "tool.exit",
      params: { code: meta.exitCode },
      tone: meta.exitCode === 0 ? "ok" : "bad",
    };
  }
  return null;
}

/** @param {unknown} s */
const linesOf = (s) => {
  const list = String(s ?? "").split(/\r?\n/);
  if (list.length > 1 && list[list.length - 1] === "") list.pop();
  return list;
};

/**
 * What an approval card previews for a write: the new content of write_file, the
 * replaced lines of edit_file (common leading/trailing lines as context), nothing
 * for other tools. At most `max` lines; `more` counts the rest.
 * @param {string} name
 * @param {Record<string, unknown>} args
 * @param {number} [max]
 * @returns {{lines: DiffLine[], more: number}|null}
 */
export function changePreview(name, args, max = 40) {
  /** @type {DiffLine[]} */
  let lines;
  if (name === "write_file" && typeof args.content === "string") {
    lines = args.content === "" ? [] : linesOf(args.content).map((text) => ({ t: "+", text }));
  } else if (
    name === "edit_file" && typeof args.old_string === "string" &&
    typeof args.new_string === "string"
  ) {
    const a = linesOf(args.old_string), b = args.new_string === "" ? [] : linesOf(args.new_string);
    const { pre, suf } = commonEnds(a, b);
    /** @param {string} text */
    const ctx = (text) => ({ t: /** @type {" "} */ (" "), text });
    lines = [
      ...a.slice(0, pre).map(ctx),
      ...a.slice(pre, a.length - suf).map((text) => ({ t: /** @type {"-"} */ ("-"), text })),
      ...b.slice(pre, b.length - suf).map((text) => ({ t: /** @type {"+"} */ ("+"), text })),
      ...a.slice(a.length - suf).map(ctx),
    ];
  } else if (name === "apply_patch" && typeof args.input === "string") {
    // The patch itself: its own +/- lines, headers and context as context.
    lines = linesOf(args.input).map((l) =>
      l.startsWith("+") && !l.startsWith("***")
        ? { t: /** @type {"+"} */ ("+"), text: l.slice(1) }
        : l.startsWith("-")
        ? { t: /** @type {"-"} */ ("-"), text: l.slice(1) }
        : { t: /** @type {" "} */ (" "), text: l.startsWith(" ") ? l.slice(1) : l }
    );
  } else return null;
  const cut = lines.slice(0, max).map((l) => ({
    t: l.t,
    text: l.text.length > 400 ? l.text.slice(0, 399) + "…" : l.text,
  }));
  return { lines: /** @type {DiffLine[]} */ (cut), more: Math.max(0, lines.length - max) };
}

const PARTIAL_KEYS = ["path", "command", "pattern", "url", "query"];

/**
 * The string arguments that already arrived complete in a tool call's streaming JSON
 * (`{"path":"a.md","content":"…` gives `{path: "a.md"}`), so a card can name its file
 * or command before the whole call is there.
 * @param {string} argsText
 * @returns {Record<string, string>}
 */
export function partialArgs(argsText) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const k of PARTIAL_KEYS) {
    const m = new RegExp(`"${k}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*")`).exec(argsText);
    if (!m) continue;
    try {
      out[k] = JSON.parse(m[1]);
    } catch { /* not complete JSON yet */ }
  }
  return out;
}

/**
 * A URL without its scheme and with a long path shortened, for a card head.
 * @param {string} url
 * @param {number} [max]
 */
export function shortUrl(url, max = 80) {
  const s = String(url).replace(/^https?:\/\//, "");
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/**
 * The "skipped" notes of a grep or glob result as [i18n key, count] pairs.
 * @param {DetailsOf<"grep"|"glob">} meta
 * @returns {[string, number][]}
 */
export function skippedNotes(meta) {
  /** @type {[string, number][]} */
  const out = [];
  /** @param {string} key @param {number|undefined} n */
  const add = (key, n) => {
    if (n !== undefined && n > 0) out.push([key, n]);
  };
  add("tool.skippedBinary", meta.skippedBinary);
  add("tool.skippedLarge", meta.skippedLarge);
  add("tool.skippedUnreadable", meta.unreadable);
  add("tool.skippedUnreadable", meta.unreadableDirs);
  return out;
}
