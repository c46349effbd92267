/**
 * Pure logic of the trajectory view, no DOM: what the agent did in a
 * task, turn by turn, from the stored entries only — model calls (model, duration,
 * tokens, stop reason), tool calls (kind, outcome, duration), refused calls (the
 * approval gate, the policy, a hook), compactions, sub-agents and errors. Nothing
 * is inferred: a value the entries do not hold is null.
 *
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 * @typedef {"ok"|"failed"|"refused"|"running"|"none"} Outcome
 * @typedef {{kind: "model", entryId: string, at: number, durationMs: number|null,
 *     model: string, status: Entry["status"], stopReason: string, calls: number,
 *     tokensIn: number|null, tokensOut: number|null, thinkingMs: number|null}
 *   | {kind: "tool", entryId: string, at: number, durationMs: number|null, callId: string,
 *     name: string, family: string, summary: string, outcome: Outcome, refusal: string}
 *   | {kind: "compaction" | "error" | "note", entryId: string, at: number,
 *     durationMs: null, text: string}} Step
 * @typedef {{id: string, userId: string|null, line: string, at: number, steps: Step[],
 *   durationMs: number|null}} TrajectoryTurn
 * @typedef {{models: number, tools: number, failed: number, refused: number,
 *   compactions: number, subagents: number, errors: number, tokensIn: number,
 *   tokensOut: number, unknownUsage: number, toolMs: number, modelMs: number}} Totals
 */
import { argSummary, groupTurns } from "./timeline_model.js";
import { resultMeta, toolKind } from "./tool_model.js";
import { firstLine } from "./navigator_model.js";

/** Longest text of a compaction / error / note step. */
const TEXT_MAX = 140;

/** @param {unknown} v */
const num = (v) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null);

/** @param {string} s */
const cut = (s) => {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > TEXT_MAX ? one.slice(0, TEXT_MAX - 1) + "…" : one;
};

/**
 * The family a tool belongs to in the view: the card kinds, plus sub-agents and MCP.
 * @param {string} name
 */
export function toolFamily(name) {
  if (name === "agent" || name === "subagent_output") return "subagent";
  if (name.startsWith("mcp__")) return "mcp";
  return toolKind(name);
}

/**
 * @param {Entry|undefined} result
 * @param {boolean} live the call's turn is running
 * @returns {{outcome: Outcome, refusal: string}}
 */
function outcomeOf(result, live) {
  if (!result) return { outcome: live ? "running" : "none", refusal: "" };
  const data = result.parts[0]?.data ?? {};
  const code = resultMeta(result).refusal?.code;
  if (typeof code === "string") return { outcome: "refused", refusal: code };
  const failed = result.status === "error" || data.isError === true;
  return { outcome: failed ? "failed" : "ok", refusal: "" };
}

/** @param {Entry} e */
function modelStep(e) {
  const m = e.meta ?? {};
  const start = num(m.startedAt);
  const end = num(m.endedAt);
  const usage = /** @type {Record<string, unknown>|null} */ (
    m.usage && typeof m.usage === "object" ? m.usage : null
  );
  let thinkingMs = null;
  for (const p of e.parts) {
    const a = num(p.data?.startedAt), b = num(p.data?.endedAt);
    if (p.type === "thinking" && a !== null && b !== null && b >= a) {
      thinkingMs = (thinkingMs ?? 0) + (b - a);
    }
  }
  return /** @type {Step} */ ({
    kind: "model",
    entryId: e.id,
    at: start ?? e.createdAt,
    durationMs: start !== null && end !== null && end >= start ? end - start : null,
    model: typeof m.model === "string" ? m.model : "",
    status: e.status,
    stopReason: typeof m.stopReason === "string" ? m.stopReason : "",
    calls: e.parts.filter((p) => p.type === "tool_call").length,
    tokensIn: usage ? num(usage.input) : null,
    tokensOut: usage ? num(usage.output) : null,
    thinkingMs,
  });
}

/**
 * The trajectory of loaded entries, one item per turn (a turn starts at a user
 * message; entries before the first loaded one form a turn without one).
 * @param {Entry[]} entries ordered by pos
 * @param {boolean} [running] whether the task runs now (its last turn is live)
 * @returns {TrajectoryTurn[]}
 */
export function trajectoryOf(entries, running = false) {
  const turns = groupTurns(entries);
  return turns.map((turn, ti) => {
    const live = running && ti === turns.length - 1;
    /** @type {Map<string, Entry>} */
    const results = new Map();
    for (const e of turn.items) {
      const id = e.role === "tool" ? e.parts[0]?.data?.toolCallId : undefined;
      if (typeof id === "string") results.set(id, e);
    }
    /** @type {Step[]} */
    const steps = [];
    for (const e of turn.items) {
      if (e.role === "assistant") {
        steps.push(modelStep(e));
        for (const p of e.parts) {
          if (p.type !== "tool_call") continue;
          const callId = String(p.data?.id ?? "");
          const name = String(p.data?.name ?? "");
          const result = results.get(callId);
          steps.push({
            kind: "tool",
            entryId: e.id,
            at: result?.createdAt ?? e.updatedAt,
            durationMs: num(result?.meta?.durationMs),
            callId,
            name,
            family: toolFamily(name),
            summary: argSummary(p.data?.args, 80),
            ...outcomeOf(result, live),
          });
        }
      } else if (e.role === "compact") {
        steps.push({
          kind: "compaction",
          entryId: e.id,
          at: e.createdAt,
          durationMs: null,
          text: cut(e.parts.map((p) => p.text ?? "").join(" ")),
        });
      } else if (e.role === "error") {
        steps.push({
          kind: "error",
          entryId: e.id,
          at: e.createdAt,
          durationMs: null,
          text: cut(e.parts[0]?.text ?? ""),
        });
      } else if (e.role === "system") {
        steps.push({
          kind: "note",
          entryId: e.id,
          at: e.createdAt,
          durationMs: null,
          text: cut(String(e.meta?.kind ?? "") || (e.parts[0]?.text ?? "")),
        });
      }
    }
    const start = turn.user?.createdAt ?? turn.items[0]?.createdAt ?? 0;
    const last = turn.items[turn.items.length - 1];
    const end = last ? Math.max(num(last.meta?.endedAt) ?? 0, last.updatedAt) : null;
    return {
      id: turn.id,
      userId: turn.user?.id ?? null,
      line: turn.user ? firstLine(turn.user) : "",
      at: start,
      steps,
      durationMs: end !== null && !live && end >= start ? end - start : null,
    };
  });
}

/**
 * Counts over a trajectory. Tokens add up only the replies that stored usage;
 * `unknownUsage` counts the finished replies that stored none (never guessed).
 * @param {TrajectoryTurn[]} turns
 * @returns {Totals}
 */
export function totalsOf(turns) {
  /** @type {Totals} */
  const t = {
    models: 0,
    tools: 0,
    failed: 0,
    refused: 0,
    compactions: 0,
    subagents: 0,
    errors: 0,
    tokensIn: 0,
    tokensOut: 0,
    unknownUsage: 0,
    toolMs: 0,
    modelMs: 0,
  };
  for (const turn of turns) {
    for (const s of turn.steps) {
      if (s.kind === "model") {
        t.models++;
        t.modelMs += s.durationMs ?? 0;
        if (s.tokensIn === null && s.tokensOut === null) {
          if (s.status !== "streaming") t.unknownUsage++;
        } else {
          t.tokensIn += s.tokensIn ?? 0;
          t.tokensOut += s.tokensOut ?? 0;
        }
      } else if (s.kind === "tool") {
        t.tools++;
        t.toolMs += s.durationMs ?? 0;
        if (s.outcome === "failed") t.failed++;
        if (s.outcome === "refused") t.refused++;
        if (s.family === "subagent" && s.name === "agent") t.subagents++;
      } else if (s.kind === "compaction") t.compactions++;
      else if (s.kind === "error") t.errors++;
    }
  }
  return t;
}

/**
 * A step's duration as shown: "420ms", "4.2s", then "3m 5s" / "1h 2m".
 * @param {number} ms
 */
export function stepDuration(ms) {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)}s`;
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}
