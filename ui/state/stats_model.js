/**
 * Session statistics of a task (pure; no DOM, no signals) and its context usage,
 * computed from the real usage recorded on assistant entries (`meta.usage`,
 * `meta.model`, `meta.startedAt`/`endedAt`). Nothing is invented: a value that cannot
 * be known is `null` and shown as unknown.
 *
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 * @typedef {import("../../protocol/index.ts").PublicProvider} PublicProvider
 * @typedef {{input: number, output: number, cacheRead: number, cacheWrite: number}} Usage
 * @typedef {{
 *   turns: number, steps: number, partial: boolean,
 *   durationMs: number|null, tokens: number|null, input: number|null, output: number|null,
 *   cacheHit: number|null, stepsWithoutUsage: number,
 *   compactions: number, compactMs: number,
 *   context: ContextUse,
 * }} SessionStats
 * @typedef {{used: number|null, limit: number|null, percent: number|null, model: string|null,
 *   estimated?: boolean}} ContextUse `estimated`: after a compaction, until a request reports usage
 */
import { compactMetaOf } from "../../protocol/index.ts";
import { groupTurns, turnSpan } from "./timeline_model.js";

/**
 * @param {unknown} u
 * @returns {Usage|null}
 */
export function usageOf(u) {
  if (!u || typeof u !== "object") return null;
  const r = /** @type {Record<string, unknown>} */ (u);
  const n = (/** @type {unknown} */ v) => typeof v === "number" && Number.isFinite(v) ? v : 0;
  if (typeof r.input !== "number" && typeof r.output !== "number") return null;
  return {
    input: n(r.input),
    output: n(r.output),
    cacheRead: n(r.cacheRead),
    cacheWrite: n(r.cacheWrite),
  };
}

/**
 * Tokens of the request's prompt (`input` excludes cached tokens, as every adapter
 * reports it) and what the context holds after the answer (prompt + output).
 * @param {Usage} u
 */
export const promptTokens = (u) => u.input + u.cacheRead + u.cacheWrite;
/** @param {Usage} u */
export const contextTokens = (u) => promptTokens(u) + u.output;

/**
 * The declared context window of `provider/model`, or null when unknown.
 * @param {PublicProvider[]} providers
 * @param {string|null|undefined} ref
 */
export function contextWindowOf(providers, ref) {
  if (typeof ref !== "string") return null;
  const i = ref.indexOf("/");
  if (i <= 0) return null;
  const p = providers.find((x) => x.id === ref.slice(0, i));
  const m = p?.models.find((x) => x.id === ref.slice(i + 1));
  const w = m?.contextWindow;
  return typeof w === "number" && w > 0 ? w : null;
}

/**
 * Context use of the latest request: its tokens (prompt + answer) against the
 * window of the model that served it.
 * @param {Entry[]} list
 * @param {PublicProvider[]} providers
 * @returns {ContextUse}
 */
export function contextUse(list, providers) {
  /** A compaction after the latest usage: its estimate of the next prompt is what holds now. */
  let compacted = /** @type {number|null} */ (null);
  for (let i = list.length - 1; i >= 0; i--) {
    const e = list[i];
    const c = compactMetaOf(e);
    if (c && compacted === null) compacted = c.tokensAfter;
    if (e.role !== "assistant") continue;
    const u = usageOf(e.meta?.usage);
    if (!u) continue;
    const model = typeof e.meta?.model === "string" ? e.meta.model : null;
    const used = compacted ?? contextTokens(u);
    const limit = contextWindowOf(providers, model);
    return {
      used,
      limit,
      percent: limit ? Math.min(100, (used / limit) * 100) : null,
      model,
      ...(compacted !== null ? { estimated: true } : {}),
    };
  }
  return { used: null, limit: null, percent: null, model: null };
}

/**
 * Turns (user messages), steps (model calls), working time (what each turn says it
 * worked, added up: {@link turnSpan}; time between turns and later bands such as a
 * rewind do not count), tokens and cache hit rate.
 * @param {Entry[]} list entries in `pos` order
 * @param {{total?: number, providers?: PublicProvider[], now?: number, running?: boolean}} [opts]
 * @returns {SessionStats}
 */
export function sessionStats(list, opts = {}) {
  const providers = opts.providers ?? [];
  let turns = 0, steps = 0, stepsWithoutUsage = 0;
  let input = 0, output = 0, cacheRead = 0, cacheWrite = 0, withUsage = 0;
  let durationMs = 0, timed = 0, compactions = 0, compactMs = 0;
  const now = opts.running ? opts.now : undefined;
  for (const turn of groupTurns(list)) {
    const span = turnSpan(turn, now);
    if (!span.worked) continue;
    durationMs += span.endedAt - span.startedAt;
    timed++;
  }
  for (const e of list) {
    const c = compactMetaOf(e);
    if (c) {
      compactions++;
      compactMs += c.durationMs;
    }
    if (e.role === "user") {
      turns++;
      continue;
    }
    if (e.role === "assistant") {
      steps++;
      const u = usageOf(e.meta?.usage);
      if (u) {
        withUsage++;
        input += u.input;
        output += u.output;
        cacheRead += u.cacheRead;
        cacheWrite += u.cacheWrite;
      } else if (e.status !== "streaming") stepsWithoutUsage++;
    }
  }
  const prompt = input + cacheRead + cacheWrite;
  return {
    turns,
    steps,
    partial: (opts.total ?? list.length) > list.length,
    durationMs: timed ? durationMs : null,
    tokens: withUsage ? prompt + output : null,
    input: withUsage ? prompt : null,
    output: withUsage ? output : null,
    cacheHit: withUsage && prompt > 0 ? cacheRead / prompt : null,
    stepsWithoutUsage,
    compactions,
    compactMs,
    context: contextUse(list, providers),
  };
}

/**
 * A token count for people: 950 → "950", 12345 → "12.3K", 1500000 → "1.5M".
 * @param {number} n
 */
export function compactTokens(n) {
  if (n >= 1_000_000) return `${trim1(n / 1_000_000)}M`;
  if (n >= 1000) return `${trim1(n / 1000)}K`;
  return String(Math.round(n));
}
/** @param {number} x */
const trim1 = (x) => (Math.round(x * 10) / 10).toString();

/**
 * A percentage to one decimal: 9.67 → "9.7%".
 * @param {number} x
 */
export const percentText = (x) => `${trim1(x)}%`;

/**
 * 65_000 → "1m 5s", 3_725_000 → "1h 2m", 400 → "<1s".
 * @param {number} ms
 */
export function shortDuration(ms) {
  const s = Math.floor(ms / 1000);
  if (s < 1) return "<1s";
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}
