/**
 * Which part of a task's conversation a compaction summarises: everything
 * before a boundary `keepFrom`, the rest kept verbatim. A boundary is always the start of
 * a user message or of a model step (an assistant entry), so a tool call and its result
 * are never split. Between turns the last `keepTurns` turns are kept; when those alone
 * are too big (one long turn), the boundary moves into the running turn and keeps its
 * latest steps (at least the last one) verbatim.
 */
import type { Entry } from "../../../protocol/index.ts";
import { compactMetaOf, estimateTokens, isClearMarker } from "../../../protocol/index.ts";

export interface CompactionPlan {
  /** `pos` of the first entry kept verbatim. */
  keepFrom: number;
  /** Messages summarised that no earlier compaction covered. */
  count: number;
  /** The boundary is inside the latest turn (its older steps are summarised). */
  inTurn: boolean;
  /** The latest user message before the boundary when `inTurn` (its request). */
  request: Entry | null;
}

export interface PlanOptions {
  keepTurns: number;
  /** Estimated tokens the kept part may hold. */
  tailBudget: number;
}

const MESSAGE_ROLES = new Set(["user", "assistant", "tool"]);

/** Estimated tokens an entry adds to a request (texts and tool-call arguments). */
export function entryTokens(e: Entry): number {
  let n = 0;
  for (const p of e.parts) {
    if (p.text) n += estimateTokens(p.text);
    if (p.type === "tool_call" && p.data) n += estimateTokens(JSON.stringify(p.data.args ?? {}));
  }
  return n + 4;
}

/**
 * The conversation's message entries the model sees in full now: after the latest
 * `/clear`, and from the latest compaction's `keepFrom` on. (The summary replaced the rest.)
 */
export function liveMessages(entries: Entry[]): Entry[] {
  const from = entries.findLastIndex(isClearMarker) + 1;
  const after = from ? entries.slice(from) : entries;
  const last = after.findLast((e) => compactMetaOf(e) !== null);
  const keepFrom = last ? compactMetaOf(last)!.keepFrom : -Infinity;
  return after.filter((e) => MESSAGE_ROLES.has(e.role) && e.pos >= keepFrom);
}

/** Where to compact `entries` (in `pos` order); null when nothing can be summarised. */
export function planCompaction(entries: Entry[], o: PlanOptions): CompactionPlan | null {
  const live = liveMessages(entries);
  // Suffix sizes: tail[i] = estimated tokens of live[i…].
  const tail = new Array<number>(live.length + 1).fill(0);
  for (let i = live.length - 1; i >= 0; i--) tail[i] = tail[i + 1] + entryTokens(live[i]);
  const users = live.flatMap((e, i) => e.role === "user" ? [i] : []);
  let at = -1;
  if (users.length > o.keepTurns) {
    const turnStart = users[users.length - o.keepTurns];
    if (tail[turnStart] <= o.tailBudget) at = turnStart;
  }
  if (at < 0) {
    // Step boundaries, latest first: keep as many recent steps as fit (at least one).
    const bounds = live.flatMap((e, i) => i > 0 && e.role !== "tool" ? [i] : []);
    for (let k = bounds.length - 1; k >= 0; k--) {
      if (k < bounds.length - 1 && tail[bounds[k]] > o.tailBudget) break;
      at = bounds[k];
    }
  }
  if (at <= 0) return null;
  // A boundary at a model step cuts a turn: its request is kept next to the summary.
  const inTurn = live[at].role !== "user";
  const lastUser = users.findLast((i) => i < at);
  return {
    keepFrom: live[at].pos,
    count: at,
    inTurn,
    request: inTurn && lastUser !== undefined ? live[lastUser] : null,
  };
}
