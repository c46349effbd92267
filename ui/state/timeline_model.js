/**
 * Pure timeline logic (no DOM, no signals): applying streamed deltas to entries,
 * grouping entries into turns and working out what a turn shows.
 * Entries are treated as immutable: a change yields new objects, so components can
 * skip work by comparing identities.
 *
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 * @typedef {import("../../protocol/index.ts").Part} Part
 * @typedef {{entryId: string, index: number, type: "text"|"thinking", text: string}} Delta
 */
import { isClearMarker } from "../../protocol/commands.ts";
import { resultMeta } from "./tool_details.js";

/**
 * Adds a delta to a pending list, merging it into the last one when it continues the
 * same part (so a frame applies one concatenation per part, not one per event).
 * @param {Delta[]} list mutated
 * @param {Delta} d
 */
export function queueDelta(list, d) {
  const last = list[list.length - 1];
  if (last && last.entryId === d.entryId && last.index === d.index && last.type === d.type) {
    last.text += d.text;
  } else {
    list.push({ entryId: d.entryId, index: d.index, type: d.type, text: String(d.text ?? "") });
  }
}

/**
 * Applies deltas in order: text is appended to part `index` of entry `entryId`; a part
 * that does not exist yet is created with the delta's type. Deltas for unknown
 * entries are dropped (the entry event that follows carries the full state).
 * A new part closes a preceding open thinking part (`endedAt`, client time `now`)
 * and a new thinking part gets `startedAt`; the server's values replace these later.
 * @param {Entry[]} entries
 * @param {Delta[]} deltas
 * @param {number} now
 * @returns {Entry[]} `entries` itself when nothing changed
 */
export function applyDeltas(entries, deltas, now) {
  let out = entries;
  /** @type {Set<string>} entries already copied in this call */
  const copied = new Set();
  for (const d of deltas) {
    let i = out.length - 1;
    while (i >= 0 && out[i].id !== d.entryId) i--;
    if (i < 0 || !d.text) continue;
    if (out === entries) out = entries.slice();
    let e = out[i];
    if (!copied.has(e.id)) {
      e = { ...e, parts: e.parts.slice() };
      out[i] = e;
      copied.add(e.id);
    }
    const parts = e.parts;
    const p = parts[d.index];
    if (p) {
      parts[d.index] = { ...p, text: (p.text ?? "") + d.text };
      continue;
    }
    while (parts.length < d.index) parts.push({ type: "text", text: "" });
    const prev = parts[parts.length - 1];
    if (prev?.type === "thinking" && prev.data?.endedAt === undefined) {
      parts[parts.length - 1] = { ...prev, data: { ...prev.data, endedAt: now } };
    }
    parts.push(
      d.type === "thinking"
        ? { type: "thinking", text: d.text, data: { startedAt: now } }
        : { type: "text", text: d.text },
    );
  }
  return out;
}

/**
 * Inserts or replaces an entry (by id), keeping `pos` order.
 * @param {Entry[]} list
 * @param {Entry} entry
 * @returns {{list: Entry[], added: boolean}}
 */
export function upsertInto(list, entry) {
  for (let i = list.length - 1; i >= 0; i--) {
    if (list[i].id === entry.id) {
      const copy = list.slice();
      copy[i] = entry;
      return { list: copy, added: false };
    }
  }
  let at = list.length;
  while (at > 0 && list[at - 1].pos > entry.pos) at--;
  return { list: [...list.slice(0, at), entry, ...list.slice(at)], added: true };
}

/**
 * The entries up to and including `afterPos` (a `truncate` event).
 * @param {Entry[]} list
 * @param {number} afterPos
 */
export function truncateAfter(list, afterPos) {
  let n = list.length;
  while (n > 0 && list[n - 1].pos > afterPos) n--;
  return n === list.length ? list : list.slice(0, n);
}

/**
 * Puts a page of older entries in front of `list`, skipping any already there.
 * @param {Entry[]} list ordered by pos
 * @param {Entry[]} older
 */
export function mergeOlder(list, older) {
  const first = list.length ? list[0].pos : Infinity;
  const add = older.filter((e) => e.pos < first).sort((a, b) => a.pos - b.pos);
  return add.length ? [...add, ...list] : list;
}

/**
 * @typedef {{id: string, user: Entry|null, items: Entry[]}} Turn
 * A user entry and everything up to the next one; entries before the first user
 * entry form a turn without `user`.
 */

/**
 * @param {Entry[]} entries ordered by pos
 * @returns {Turn[]}
 */
export function groupTurns(entries) {
  /** @type {Turn[]} */
  const turns = [];
  /** @type {Turn|null} */
  let cur = null;
  for (const e of entries) {
    if (e.role === "user") {
      cur = { id: e.id, user: e, items: [] };
      turns.push(cur);
    } else {
      if (!cur) {
        cur = { id: `pre-${e.id}`, user: null, items: [] };
        turns.push(cur);
      }
      cur.items.push(e);
    }
  }
  return turns;
}

/**
 * @typedef {{kind: "assistant", entry: Entry, parts: number[], results: Record<string, Entry>}
 *   | {kind: "orphan" | "error" | "note", entry: Entry}} ProcessItem
 * @typedef {{entry: Entry, parts: number[]}} FinalAnswer
 * @typedef {"working"|"done"|"stopped"|"error"} TurnStatus
 * @typedef {{
 *   status: TurnStatus,
 *   process: ProcessItem[],
 *   compactions: Entry[],
 *   final: FinalAnswer|null,
 *   errors: Entry[],
 *   maxSteps: boolean,
 *   stopNotice: "max_tokens"|"refusal"|"content_filter"|null,
 *   startedAt: number,
 *   endedAt: number,
 *   rewinds: Entry[],
 *   clears: Entry[],
 *   hookNotes: Entry[],
 * }} TurnView
 */

/**
 * A rewind record (`system` entry with `meta.kind === "rewind"`): a band, not part of
 * the turn's work (its time does not count, it does not hide the answer).
 * @param {Entry} e
 */
export const isRewindEntry = (e) => e.role === "system" && e.meta?.kind === "rewind";

/**
 * What a hook reported on the turn (`system` entry, `meta.kind === "hook"`), and a new
 * worktree's setup (`"setup"`): shown with the turn, outside its folded steps, and never
 * taken for its answer.
 * @param {Entry} e
 */
export const isHookNote = (e) =>
  e.role === "system" && (e.meta?.kind === "hook" || e.meta?.kind === "setup");

/** @param {Part} p */
const callId = (p) => p.type === "tool_call" ? String(p.data?.id ?? "") : "";
/** @param {Entry} e */
const resultId = (e) => String(e.parts[0]?.data?.toolCallId ?? "");
/** @param {Entry} e */
const endOf = (e) => Math.max(Number(e.meta?.endedAt) || 0, e.updatedAt || 0, e.createdAt || 0);

/**
 * Whether an entry is part of its turn's work: rewind records, `/clear` markers and hook
 * notes are bands written beside the turn, often long after it (a rewind minutes later).
 * @param {Entry} e
 */
export const isWork = (e) => !isRewindEntry(e) && !isClearMarker(e) && !isHookNote(e);

/**
 * How long a turn worked: from its message to the end of the last entry of its work
 * ("Worked 19s" under the turn; the stats line adds these up).
 * @param {Turn} turn
 * @param {number} [now] while a run is live: the end of an entry still streaming
 * @returns {{startedAt: number, endedAt: number, worked: boolean}} `worked`: the turn has
 *   work to time (not only its message, or only bands)
 */
export function turnSpan(turn, now) {
  const items = turn.items.filter(isWork);
  const startedAt = turn.user?.createdAt ?? items[0]?.createdAt ?? 0;
  let endedAt = startedAt;
  for (const e of items) {
    endedAt = Math.max(endedAt, now !== undefined && e.status === "streaming" ? now : endOf(e));
  }
  return { startedAt, endedAt, worked: items.length > 0 };
}

/**
 * Works out what a turn shows: the process (thinking, tool calls with their results,
 * intermediate text, in production order), the final answer (the trailing text of
 * the last assistant entry, only once the turn is finished), trailing error lines,
 * the max-steps flag, the status and the time span.
 * @param {Turn} turn
 * @param {boolean} live whether a run is active for this turn
 * @returns {TurnView}
 */
export function analyseTurn(turn, live) {
  const rewinds = turn.items.filter(isRewindEntry);
  // A `/clear` marker is a band too (shown after the turn it followed).
  const clears = turn.items.filter(isClearMarker);
  const hookNotes = turn.items.filter(isHookNote);
  const items = rewinds.length || clears.length || hookNotes.length
    ? turn.items.filter((e) => !isRewindEntry(e) && !isClearMarker(e) && !isHookNote(e))
    : turn.items;
  // A result belongs to the latest earlier call with its id that has no result yet:
  // providers may reuse ids (e.g. "call_1" in every response).
  /** @type {Map<Entry, Record<string, Entry>>} */
  const resultsOf = new Map();
  /** @type {Set<Entry>} */
  const matched = new Set();
  /** @type {Map<string, Entry>} call id → assistant entry whose call is still open */
  const open = new Map();
  for (const e of items) {
    if (e.role === "assistant") {
      resultsOf.set(e, {});
      for (const p of e.parts) if (callId(p)) open.set(callId(p), e);
    } else if (e.role === "tool") {
      const owner = open.get(resultId(e));
      if (!owner) continue;
      /** @type {Record<string, Entry>} */ (resultsOf.get(owner))[resultId(e)] = e;
      matched.add(e);
      open.delete(resultId(e));
    }
  }

  let end = items.length;
  while (end > 0 && items[end - 1].role === "error") end--;
  // A compaction after the answer does not hide the answer (it shows as a band).
  let lastAt = end - 1;
  while (lastAt >= 0 && items[lastAt].role === "compact") lastAt--;
  const last = items[lastAt];
  /** @type {FinalAnswer|null} */
  let final = null;
  let cut = -1;
  if (!live && last?.role === "assistant") {
    let k = last.parts.length;
    while (k > 0 && last.parts[k - 1].type === "text") k--;
    const idx = [];
    for (let j = k; j < last.parts.length; j++) if (last.parts[j].text?.trim()) idx.push(j);
    if (idx.length) {
      final = { entry: last, parts: idx };
      cut = k;
    }
  }

  /** @type {ProcessItem[]} */
  const process = [];
  /** @type {Entry[]} */
  const compactions = [];
  for (let i = 0; i < end; i++) {
    const e = items[i];
    if (e.role === "assistant") {
      const n = final?.entry === e ? cut : e.parts.length;
      const parts = [];
      /** @type {Record<string, Entry>} */
      const mine = {};
      const own = resultsOf.get(e) ?? {};
      for (let j = 0; j < n; j++) {
        const p = e.parts[j];
        if (p.type === "text" && !p.text?.trim()) continue;
        parts.push(j);
        const r = own[callId(p)];
        if (r) mine[callId(p)] = r;
      }
      if (parts.length || e.status === "streaming") {
        process.push({ kind: "assistant", entry: e, parts, results: mine });
      }
    } else if (e.role === "tool") {
      if (!matched.has(e)) process.push({ kind: "orphan", entry: e });
    } else if (e.role === "error") process.push({ kind: "error", entry: e });
    else if (e.role === "compact") compactions.push(e);
    else process.push({ kind: "note", entry: e });
  }

  let lastAssistant = null;
  for (let i = items.length - 1; i >= 0 && !lastAssistant; i--) {
    if (items[i].role === "assistant") lastAssistant = items[i];
  }
  const maxSteps = lastAssistant?.meta?.truncatedBy === "maxSteps";
  // The last answer ended without being complete: said under the turn, never silently.
  const reason = lastAssistant?.meta?.stopReason;
  const stopNotice = !live && lastAssistant?.status === "done" &&
      (reason === "max_tokens" || reason === "refusal" || reason === "content_filter")
    ? reason
    : null;
  /** @type {TurnStatus} */
  let status = "done";
  if (live) status = "working";
  else if (end < items.length || lastAssistant?.status === "error") status = "error";
  else if (lastAssistant?.status === "stopped") status = "stopped";
  // Tool results with no answer after them, or calls that never got a result (e.g. a
  // restart while one waited for approval), and no step cap: the run was cut short.
  else if ((last?.role === "tool" || open.size > 0) && !maxSteps) status = "stopped";

  const { startedAt, endedAt } = turnSpan(turn);
  return {
    status,
    process,
    compactions,
    final,
    errors: items.slice(end),
    maxSteps,
    stopNotice,
    startedAt,
    endedAt,
    rewinds,
    clears,
    hookNotes,
  };
}

/**
 * Whether a tool result is a file change: the tool's `changesFiles` trait marks it;
 * results recorded before that mark are known by the diff or deletion they carry.
 * @param {import("../../protocol/tool_details.ts").AnyToolDetails} meta
 */
const isFileChange = (meta) =>
  meta.changesFiles === true || meta.diff !== undefined || meta.deleted === true;

/**
 * @typedef {{path: string, added: number|null, removed: number|null, callId: string,
 *   created: boolean, deleted: boolean, note?: string}} FileChange
 * @typedef {{files: FileChange[], added: number, removed: number, more: number,
 *   turnId: string|null, rewound: {entryId: string, at: number}|null}} TurnFiles
 *   `turnId` set: the server's net record (rows open the turn's net diff); null: the
 *   sum of the tool calls (older turns; rows open the last call's diff).
 */

/**
 * The server's net record of what a turn changed (`meta.changes` of its user entry:
 * per file from before the turn to after it), or null when it has none.
 * @param {Entry|null} user
 * @returns {TurnFiles|null}
 */
export function netFileChanges(user) {
  const c = /** @type {Record<string, any>|undefined} */ (user?.meta?.changes);
  if (!user || !c || !Array.isArray(c.files)) return null;
  /** @param {unknown} n */
  const num = (n) => (typeof n === "number" && Number.isFinite(n) ? n : null);
  /** @type {FileChange[]} */
  const files = c.files.map((/** @type {Record<string, any>} */ f) => ({
    path: String(f.path ?? ""),
    added: num(f.added),
    removed: num(f.removed),
    callId: "",
    created: f.created === true,
    deleted: f.deleted === true,
    ...(typeof f.note === "string" ? { note: f.note } : {}),
  }));
  return {
    files,
    added: num(c.added) ?? 0,
    removed: num(c.removed) ?? 0,
    more: num(c.more) ?? 0,
    turnId: user.id,
    rewound: c.rewound && typeof c.rewound.entryId === "string" ? c.rewound : null,
  };
}

/**
 * The files a finished turn changed, for a turn the server has no net record of
 * (older timelines): from its successful file-changing tool calls,
 * per path the summed line counts and the latest call (whose diff the review panel
 * shows), in first-touched order.
 * @param {TurnView} view
 * @returns {TurnFiles}
 */
export function fileChanges(view) {
  /** @type {Map<string, FileChange>} */
  const byPath = new Map();
  for (const item of view.process) {
    if (item.kind !== "assistant") continue;
    for (const j of item.parts) {
      const p = item.entry.parts[j];
      if (p.type !== "tool_call") continue;
      const id = callId(p);
      const r = item.results[id];
      if (!r || r.status === "error" || r.parts[0]?.data?.isError === true) continue;
      const meta = resultMeta(r);
      if (!isFileChange(meta)) continue;
      const path = String(meta.path ?? /** @type {any} */ (p.data?.args)?.path ?? "");
      if (!path) continue;
      const d = meta.diff;
      const added = d && Number.isFinite(d.added) ? d.added : 0;
      const removed = d && Number.isFinite(d.removed) ? d.removed : 0;
      const prev = byPath.get(path);
      byPath.set(path, {
        path,
        added: (prev?.added ?? 0) + added,
        removed: (prev?.removed ?? 0) + removed,
        callId: id,
        created: prev ? prev.created : meta.created === true,
        deleted: meta.deleted === true,
      });
    }
  }
  const files = [...byPath.values()];
  return {
    files,
    added: files.reduce((n, f) => n + (f.added ?? 0), 0),
    removed: files.reduce((n, f) => n + (f.removed ?? 0), 0),
    more: 0,
    turnId: null,
    rewound: null,
  };
}

/** Argument keys that name what a tool works on, most telling first. */
const SUMMARY_KEYS = ["path", "file_path", "command", "pattern", "query", "url", "name", "id"];

/**
 * A one-line summary of a tool call's arguments, e.g. `.` for list_dir or `notes.md`
 * for read_file; falls back to compact JSON. At most `max` characters.
 * @param {unknown} args
 * @param {number} [max]
 */
export function argSummary(args, max = 120) {
  if (!args || typeof args !== "object") return "";
  const a = /** @type {Record<string, unknown>} */ (args);
  let s = "";
  for (const k of SUMMARY_KEYS) {
    if (typeof a[k] === "string" && a[k]) {
      s = /** @type {string} */ (a[k]);
      break;
    }
  }
  if (!s) {
    const first = Object.values(a).find((v) => typeof v === "string" && v);
    s = typeof first === "string" ? first : Object.keys(a).length ? JSON.stringify(a) : "";
  }
  s = s.replace(/\s+/g, " ").trim();
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/**
 * "12s", "3m 48s", "1h 5m" style parts of a duration.
 * @param {number} ms
 * @returns {{h: number, m: number, s: number}}
 */
export function durationParts(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  return { h: Math.floor(total / 3600), m: Math.floor((total % 3600) / 60), s: total % 60 };
}
