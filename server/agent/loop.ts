/**
 * The agent loop: send the context, stream the assistant, run its tool
 * calls (consecutive read-only calls concurrently, others one by one), append the
 * results, repeat — until no tool calls, the step budget, a stop, or an error.
 */
import { mark } from "../trace.ts";
import type {
  Adapter,
  ImageBlock,
  LlmMessage,
  StopReason,
  StreamRequest,
  Usage,
} from "../providers/types.ts";
import { imagesOf, resultTextFor, toolImagesMessage } from "./tool_images.ts";
import { type RetryNotice, withRetry } from "../providers/retry.ts";
import {
  abortedError,
  errorInfo,
  isContextOverflow,
  ProviderError,
  type ProviderErrorInfo,
} from "../providers/errors.ts";
import type { ToolRegistry } from "../../tools/registry.ts";
import type { ToolResult } from "../../tools/types.ts";
import type { TimelineWriter } from "./timeline_writer.ts";
import type { Refusal } from "../../protocol/index.ts";
import type { ContextKeeper } from "./compaction/compactor.ts";
import { costOf } from "../../protocol/pricing.ts";

export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  argsError?: string;
  /** What the user answered when the gate asked them; reaches the tool only (ctx.answer). */
  answer?: unknown;
}

/** Decides whether a call may run (the approval gate). */
export type Gate = (
  call: ToolCall,
  signal: AbortSignal,
) => Promise<
  | { allow: true; answer?: unknown }
  | { allow: false; reason: string; refusal?: Refusal }
>;

export interface LoopHost {
  adapter: Adapter;
  /** Builds the request for the conversation so far (system prompt, tools, model). */
  buildRequest(messages: LlmMessage[]): StreamRequest;
  /** The conversation so far; the loop appends to it. */
  messages: LlmMessage[];
  tools: ToolRegistry;
  /** Executes an allowed call (sandbox, checkpoints …); defaults to the tool's own execute. */
  runTool?(call: ToolCall, signal: AbortSignal): Promise<ToolResult>;
  workspace: string;
  maxSteps: number;
  signal: AbortSignal;
  writer: TimelineWriter;
  gate?: Gate;
  /** Keeps the conversation inside the context window (compaction); absent = never. */
  context?: ContextKeeper;
  onStep?(step: number, phase: "model" | "tools"): void;
  onRetry?(notice: RetryNotice | null): void;
  /** An answer started streaming (each step's first event). */
  onAnswering?(): void;
  now?: () => number;
  /** The model sees images: images tools return follow their results. */
  vision?: boolean;
}

/**
 * How a run ended. A `done` run whose last answer was cut short or declined names why in
 * `stop` (refusal, content filter, output limit): the run ended, but not with an answer.
 */
export type LoopOutcome =
  | { kind: "done"; steps: number; stop?: CutStop }
  | { kind: "stopped"; steps: number }
  | { kind: "maxSteps"; steps: number }
  | { kind: "error"; steps: number; error: ProviderErrorInfo };

/** The stop reasons that end an answer without it being complete. */
export type CutStop = Extract<StopReason, "refusal" | "content_filter" | "max_tokens">;
const CUT_STOPS: ReadonlySet<string> = new Set(["refusal", "content_filter", "max_tokens"]);

const STOPPED_RESULT: ToolResult = {
  content: "The user stopped the run before this tool call finished.",
  isError: true,
};

export async function runLoop(h: LoopHost): Promise<LoopOutcome> {
  /** A "context too long" refusal is answered once per step by a compaction and a retry. */
  let overflowStep = 0;
  for (let step = 1;; step++) {
    if (h.signal.aborted) return { kind: "stopped", steps: step - 1 };
    if (h.context) {
      h.messages = await h.context.beforeRequest(h.messages, h.signal);
      if (h.signal.aborted) return { kind: "stopped", steps: step - 1 };
    }
    h.onStep?.(step, "model");
    const request = h.buildRequest(h.messages);
    mark(`loop: step ${step} request built`);
    h.writer.beginAssistant({ step, model: `${request.provider.id}/${request.model.id}` });
    const calls: ToolCall[] = [];
    const callIds = new Map<number, string>();
    let stopReason: StopReason | undefined;
    let usage: Usage | undefined;
    // Priced at the model's price when the reply ends, so a later price edit keeps history.
    const cost = () => (usage ? costOf(usage, request.model.price) : undefined);
    try {
      const events = withRetry(
        () => h.adapter.stream(request, h.signal),
        h.signal,
        (n) => h.onRetry?.(n),
      );
      let retrying = true;
      for await (const ev of events) {
        if (retrying) {
          mark(`loop: step ${step} first event`);
          h.onAnswering?.();
          h.onRetry?.(null); // content flows: the "Reconnecting…" line goes away
          retrying = false;
        }
        switch (ev.type) {
          case "text":
          case "thinking":
            h.writer.delta(ev.type, ev.delta);
            break;
          case "thinking_signature":
            h.writer.signature(ev.signature);
            break;
          case "text_signature":
            h.writer.textSignature(ev.signature);
            break;
          case "thinking_opaque":
            h.writer.opaque(ev.data);
            break;
          case "tool_call_start":
            callIds.set(ev.index, ev.id);
            h.writer.toolCallStart(ev.id, ev.name);
            break;
          case "tool_call_delta": {
            const id = callIds.get(ev.index);
            if (id) h.writer.toolCallDelta(id, ev.delta);
            break;
          }
          case "tool_call":
            calls.push({ id: ev.id, name: ev.name, args: ev.args, argsError: ev.argsError });
            h.writer.toolCall(ev);
            break;
          case "usage":
            usage = ev.usage;
            break;
          case "stop":
            stopReason = ev.reason;
            break;
        }
      }
      // Some SDK streams end quietly when aborted: a stop is a stop, not an answer.
      if (h.signal.aborted) throw abortedError();
    } catch (e) {
      h.onRetry?.(null);
      if (h.signal.aborted || (e instanceof ProviderError && e.info.category === "aborted")) {
        const msg = h.writer.endAssistant("stopped", { usage, cost: cost() });
        if (msg) h.messages.push(msg);
        return { kind: "stopped", steps: step };
      }
      const info = e instanceof ProviderError ? e.info : unexpected(e);
      if (
        h.context && overflowStep !== step && isContextOverflow(info) &&
        h.writer.discardEmptyAssistant()
      ) {
        overflowStep = step;
        const compacted = await h.context.onOverflow(h.signal);
        if (h.signal.aborted) return { kind: "stopped", steps: step - 1 };
        if (compacted) {
          h.messages = compacted;
          step--; // the same step again, on the compacted conversation
          continue;
        }
        h.writer.error(info);
        return { kind: "error", steps: step, error: info };
      }
      h.writer.endAssistant("error", { usage, cost: cost(), error: info });
      h.writer.error(info);
      return { kind: "error", steps: step, error: info };
    }
    mark(`loop: step ${step} answer done`);
    if (usage) h.context?.noteUsage(usage);
    const msg = h.writer.endAssistant("done", { stopReason, usage, cost: cost() });
    if (msg) h.messages.push(msg);
    if (calls.length === 0) {
      // A paused turn (a long server-side step) resumes when its answer is sent back as is.
      if (stopReason === "pause_turn" && msg && step < h.maxSteps) continue;
      return stopReason && CUT_STOPS.has(stopReason)
        ? { kind: "done", steps: step, stop: stopReason as CutStop }
        : { kind: "done", steps: step };
    }

    h.onStep?.(step, "tools");
    await runCalls(h, calls);
    mark(`loop: step ${step} tools done`);
    if (h.signal.aborted) return { kind: "stopped", steps: step };
    if (step >= h.maxSteps) {
      h.writer.annotateLast({ truncatedBy: "maxSteps" });
      return { kind: "maxSteps", steps: step };
    }
  }
}

const unexpected = (e: unknown): ProviderErrorInfo => errorInfo((e as Error)?.message ?? String(e));

/** Runs calls in order; a run of consecutive read-only calls runs concurrently. */
async function runCalls(h: LoopHost, calls: ToolCall[]): Promise<void> {
  let i = 0;
  const images: { name: string; images: ImageBlock[] }[] = [];
  const concurrent = (c: ToolCall) => {
    const t = h.tools.get(c.name);
    return t?.kind === "read" && !t.traits?.sequential;
  };
  while (i < calls.length) {
    const batch = [calls[i]];
    if (concurrent(calls[i])) {
      while (i + batch.length < calls.length && concurrent(calls[i + batch.length])) {
        batch.push(calls[i + batch.length]);
      }
    }
    const results = await Promise.all(batch.map((c) => runOne(h, c)));
    batch.forEach((c, k) => {
      h.writer.toolResult(c, results[k].result, results[k].ms);
      h.messages.push({
        role: "tool",
        toolCallId: c.id,
        name: c.name,
        content: resultTextFor(results[k].result.content, results[k].result.meta, !!h.vision),
        isError: results[k].result.isError,
      });
      if (h.vision) images.push({ name: c.name, images: imagesOf(results[k].result.meta) });
    });
    i += batch.length;
  }
  // After every result of the step (tool messages must follow their calls directly).
  const withImages = toolImagesMessage(images);
  if (withImages) h.messages.push(withImages);
}

async function runOne(h: LoopHost, call: ToolCall): Promise<{ result: ToolResult; ms: number }> {
  const now = h.now ?? Date.now;
  const t0 = now();
  const done = (result: ToolResult) => ({ result, ms: now() - t0 });
  if (h.signal.aborted) return done(STOPPED_RESULT);
  const tool = h.tools.get(call.name);
  mark(`tool ${call.name}: start`);
  if (!tool) {
    const names = h.tools.specs().map((s) => s.name).join(", ");
    return done({
      content: `Unknown tool "${call.name}". Available tools: ${names}.`,
      isError: true,
    });
  }
  if (call.argsError) {
    return done({
      content: `Invalid arguments for ${call.name}: ${call.argsError}`,
      isError: true,
    });
  }
  let run = call;
  if (h.gate) {
    const verdict = await h.gate(call, h.signal);
    if (!verdict.allow) {
      // The model reads the text; the UI translates the refusal's code.
      const meta = verdict.refusal ? { refusal: verdict.refusal } : undefined;
      return done({ content: verdict.reason, isError: true, ...(meta ? { meta } : {}) });
    }
    // The user's answers reach the tool only, never the model's history.
    if (verdict.answer !== undefined) run = { ...call, answer: verdict.answer };
  }
  mark(`tool ${call.name}: gated`);
  try {
    const result = h.runTool ? await h.runTool(run, h.signal) : await tool.execute(run.args, {
      workspace: h.workspace,
      signal: h.signal,
      answer: run.answer,
    });
    return done(h.signal.aborted && result.isError ? STOPPED_RESULT : result);
  } catch (e) {
    return done({
      content: `${call.name} failed: ${(e as Error)?.message ?? String(e)}`,
      isError: true,
    });
  }
}
