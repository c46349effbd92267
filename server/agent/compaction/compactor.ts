/**
 * Keeps a task's conversation inside the model's context window: decides
 * when to compact (the provider-reported prompt reached the watermark, or the provider
 * refused the request as too long), asks the model for a summary with the same system
 * prompt and tools as a normal request (so a cached prefix is reused) and the
 * instruction as the last user message, and records it as a `compact` entry. A failed
 * or stopped compaction writes nothing: the history stays as it was.
 */
import type { CompactMeta, CompactTrigger, Entry } from "../../../protocol/index.ts";
import { compactMetaOf, compactWatermark } from "../../../protocol/index.ts";
import type { EntryRepo } from "../../../store/entries.ts";
import {
  type Adapter,
  type ContextKeeper,
  errorInfo,
  isContextOverflow,
  type LlmMessage,
  type ModelInfo,
  type ProviderConfig,
  ProviderError,
  type ProviderErrorInfo,
  type StreamRequest,
  type Usage,
  withRetry,
} from "../../../agent/index.ts";
import type { TimelineWriter } from "../timeline_writer.ts";
import { type CompactionPlan, planCompaction } from "./plan.ts";
import { requestTokens } from "./estimate.ts";
import compactPrompt from "./compact_prompt.md" with { type: "text" };

/** The model that writes summaries (Settings → compaction model; default the task's). */
export interface SummaryModel {
  adapter: Adapter;
  provider: ProviderConfig;
  model: ModelInfo;
}

export interface CompactorDeps {
  taskId: string;
  entries: EntryRepo;
  writer: TimelineWriter;
  /** The normal request for a conversation (system prompt, tools, reminder, microcompact). */
  buildRequest(messages: LlmMessage[]): StreamRequest;
  /** The model's conversation for stored entries (history.ts plus attachments). */
  conversation(entries: Entry[]): Promise<LlmMessage[]>;
  summary: SummaryModel;
  /** The task model's window and output limit (the watermark is computed from them). */
  contextWindow: number | null;
  maxOutput: number;
  now: () => number;
  timeoutMs?: number;
  /** Called when a compaction starts and ends (run state "compacting"). */
  onActive?(active: boolean): void;
}

export type CompactResult =
  | { ok: true; entry: Entry; messages: LlmMessage[] }
  | { ok: false; reason: "nothing" | "stopped" }
  | { ok: false; reason: "failed"; error: ProviderErrorInfo };

const TIMEOUT_MS = 180_000;
const REQUEST_CAP = 8000;
/** Auto compactions are at least this many steps apart (a summary that did not help waits). */
const MIN_STEPS_BETWEEN = 2;

const promptOf = (u: Usage) => u.input + u.cacheRead + u.cacheWrite;

/** Plan options per trigger: a manual compaction keeps less (the user asked for room). */
function planOptions(trigger: CompactTrigger, watermark: number) {
  if (trigger === "manual") return { keepTurns: 2, tailBudget: watermark * 0.15 };
  if (trigger === "overflow") return { keepTurns: 4, tailBudget: watermark * 0.2 };
  return { keepTurns: 4, tailBudget: watermark * 0.3 };
}

export class Compactor implements ContextKeeper {
  /** Prompt tokens the provider reported for the latest request (0 after a compaction). */
  private lastPrompt: number;
  private stepsSince = MIN_STEPS_BETWEEN;
  /** Failures in this run: auto compaction stops trying after two. */
  private failures = 0;

  constructor(private d: CompactorDeps, initialPrompt = 0) {
    this.lastPrompt = initialPrompt;
  }

  /** Prompt tokens at which an automatic compaction runs. */
  get watermark(): number {
    return compactWatermark(this.d.contextWindow, this.d.maxOutput);
  }

  noteUsage(usage: Usage): void {
    this.lastPrompt = promptOf(usage);
    this.stepsSince++;
  }

  async beforeRequest(messages: LlmMessage[], signal: AbortSignal): Promise<LlmMessage[]> {
    if (this.lastPrompt < this.watermark || this.stepsSince < MIN_STEPS_BETWEEN) return messages;
    if (this.failures >= 2) return messages;
    const r = await this.compact("auto", signal);
    return r.ok ? r.messages : messages;
  }

  async onOverflow(signal: AbortSignal): Promise<LlmMessage[] | null> {
    const r = await this.compact("overflow", signal);
    return r.ok ? r.messages : null;
  }

  /** Compacts now; a failure is written as an error line and leaves the history as it was. */
  async compact(
    trigger: CompactTrigger,
    signal: AbortSignal,
    focus?: string,
  ): Promise<CompactResult> {
    const entries = this.d.entries.latest(this.d.taskId, Number.MAX_SAFE_INTEGER);
    const plan = planCompaction(entries, planOptions(trigger, this.watermark));
    if (!plan) return { ok: false, reason: "nothing" };
    const t0 = this.d.now();
    this.d.onActive?.(true);
    try {
      // Estimated like `tokensAfter`, so the two compare (the provider's count may differ).
      const before = requestTokens(this.d.buildRequest(await this.d.conversation(entries)));
      const text = await this.summarise(entries, plan, signal, focus);
      const meta: CompactMeta = {
        kind: "compaction",
        count: plan.count,
        keepFrom: plan.keepFrom,
        trigger,
        inTurn: plan.inTurn,
        tokensBefore: before,
        tokensAfter: 0,
        durationMs: 0,
        model: `${this.d.summary.provider.id}/${this.d.summary.model.id}`,
        ...(focus ? { focus } : {}),
        ...requestOf(plan, entries),
      };
      // The conversation as it will be, from the entries plus the summary about to be written.
      const draft: Entry = {
        id: "",
        taskId: this.d.taskId,
        pos: Number.MAX_SAFE_INTEGER,
        role: "compact",
        status: "done",
        createdAt: 0,
        updatedAt: 0,
        parts: [{ type: "text", text }],
        meta: { ...meta },
      };
      const messages = await this.d.conversation([...entries, draft]);
      meta.tokensAfter = requestTokens(this.d.buildRequest(messages));
      meta.durationMs = this.d.now() - t0;
      const entry = this.d.writer.compaction(text, meta);
      this.lastPrompt = 0;
      this.stepsSince = 0;
      this.failures = 0;
      return { ok: true, entry, messages };
    } catch (e) {
      if (signal.aborted) return { ok: false, reason: "stopped" };
      this.failures++;
      const info = failureInfo(e, this.d.timeoutMs ?? TIMEOUT_MS);
      this.d.writer.error(info);
      return { ok: false, reason: "failed", error: info };
    } finally {
      this.d.onActive?.(false);
    }
  }

  /**
   * Asks the summary model; throws on failure, timeout or an empty answer. When the part
   * to summarise is itself too long for the model, its oldest half is left out (twice at
   * most) and the instruction says so: a summary of the recent part beats no compaction.
   */
  private async summarise(
    entries: Entry[],
    plan: CompactionPlan,
    signal: AbortSignal,
    focus?: string,
  ): Promise<string> {
    // Earlier compact entries stay: the conversation before keepFrom starts with their summary.
    let older = entries.filter((e) => e.pos < plan.keepFrom || compactMetaOf(e) !== null);
    for (let cut = 0;; cut++) {
      try {
        return await this.ask(older, signal, focus, cut > 0);
      } catch (e) {
        const tooLong = e instanceof ProviderError && isContextOverflow(e.info);
        const shorter = tooLong && cut < 2 ? withoutOldestHalf(older) : null;
        if (!shorter) throw e;
        older = shorter;
      }
    }
  }

  private async ask(
    older: Entry[],
    signal: AbortSignal,
    focus: string | undefined,
    cut: boolean,
  ): Promise<string> {
    const instruction = [
      compactPrompt.trim(),
      cut ? "(The oldest part of the conversation did not fit and is not shown above.)" : "",
      focus ? `Focus the summary on: ${focus}` : "",
    ].filter(Boolean).join("\n\n");
    const base = this.d.buildRequest([
      ...await this.d.conversation(older),
      { role: "user", content: [{ type: "text", text: instruction }] },
    ]);
    const { adapter, provider, model } = this.d.summary;
    const request: StreamRequest = { ...base, provider, model };
    const limit = AbortSignal.any([signal, AbortSignal.timeout(this.d.timeoutMs ?? TIMEOUT_MS)]);
    let text = "";
    try {
      for await (const ev of withRetry(() => adapter.stream(request, limit), limit, () => {})) {
        if (ev.type === "text") text += ev.delta;
      }
      if (limit.aborted) throw limit.reason;
    } catch (e) {
      // The adapter reports any abort alike; only the run's own signal is a stop.
      if (limit.aborted && !signal.aborted) throw new DOMException("timed out", "TimeoutError");
      throw e;
    }
    text = text.trim();
    if (!text) throw new Error("the model returned no summary");
    return text;
  }
}

/**
 * `older` without the oldest half of its messages, cut at a user message or a model step
 * (earlier summaries stay); null when too little is left to cut.
 */
function withoutOldestHalf(older: Entry[]): Entry[] | null {
  const msgs = older.filter((e) => compactMetaOf(e) === null);
  const bounds = msgs.flatMap((e, i) => i > 0 && e.role !== "tool" ? [i] : []);
  const at = bounds.find((i) => i >= msgs.length / 2);
  if (at === undefined) return null;
  const from = msgs[at].pos;
  return older.filter((e) => compactMetaOf(e) !== null || e.pos >= from);
}

/** In-turn: the request of the turn being cut, verbatim (or the one the last summary kept). */
function requestOf(plan: CompactionPlan, entries: Entry[]): { request?: string } {
  if (!plan.inTurn) return {};
  const own = plan.request?.parts.filter((p) => p.type === "text").map((p) => p.text ?? "")
    .join("\n").trim();
  const last = entries.findLast((e) => compactMetaOf(e) !== null);
  const text = own || (last ? compactMetaOf(last)?.request : undefined) || "";
  if (!text) return {};
  return {
    request: text.length > REQUEST_CAP ? `${text.slice(0, REQUEST_CAP)}\n…(truncated)` : text,
  };
}

function failureInfo(e: unknown, timeoutMs: number): ProviderErrorInfo {
  const keep = "The conversation was not compacted and is unchanged.";
  if (e instanceof DOMException && e.name === "TimeoutError") {
    return errorInfo(`Compaction timed out after ${Math.round(timeoutMs / 1000)} s. ${keep}`, {
      category: "timeout",
    });
  }
  const base = e instanceof ProviderError ? e.info : errorInfo((e as Error)?.message ?? String(e));
  return {
    ...base,
    message: `Compaction failed: ${base.message}. ${keep}`,
    chain: [`Compaction failed: ${base.message}`, ...base.chain],
  };
}
