/**
 * The agent loop: send the conversation, stream the answer, run its tool calls
 * (consecutive read-only calls concurrently, others one by one), append the results,
 * repeat — until no tool calls, the step budget, a stop, or an error. It yields what
 * happens as `AgentEvent`s and owns no storage: the caller keeps the timeline.
 */
import { mark } from "../lib/trace.ts";
import { costOf } from "../protocol/pricing.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import type { ToolResult } from "../tools/types.ts";
import type {
  Adapter,
  ImageBlock,
  LlmMessage,
  StopReason,
  StreamRequest,
  Usage,
} from "./providers/types.ts";
import { retrying } from "./providers/retry.ts";
import {
  abortedError,
  errorInfo,
  isContextOverflow,
  ProviderError,
  type ProviderErrorInfo,
} from "./providers/errors.ts";
import { imagesOf, resultTextFor, toolImagesMessage } from "./tool_images.ts";
import { Answer, assistantMessage, type PartChange } from "./answer.ts";
import { checkCall, type CheckedCall, type Gate, isChecked, type ToolCall } from "./tool_call.ts";
import type { ContextKeeper } from "./context.ts";
import type { AgentEvent, CutStop, LoopOutcome } from "./events.ts";

export interface LoopInput {
  adapter: Adapter;
  /** Builds the request for the conversation so far (system prompt, tools, model). */
  buildRequest(messages: LlmMessage[]): StreamRequest;
  /** The conversation so far; the loop appends to it (and replaces it after a compaction). */
  messages: LlmMessage[];
  tools: ToolRegistry;
  /** Runs a checked, allowed call (sandbox, checkpoints …); default: the tool's own `run`. */
  runTool?(call: CheckedCall, signal: AbortSignal): Promise<ToolResult>;
  workspace: string;
  maxSteps: number;
  signal: AbortSignal;
  gate?: Gate;
  /** Keeps the conversation inside the context window (compaction); absent = never. */
  context?: ContextKeeper;
  now?: () => number;
  /** The model sees images: images tools return follow their results. */
  vision?: boolean;
}

const CUT_STOPS: ReadonlySet<string> = new Set(["refusal", "content_filter", "max_tokens"]);

const STOPPED_RESULT: ToolResult = {
  content: "The user stopped the run before this tool call finished.",
  isError: true,
};

/** Runs the loop, handing each event to `onEvent` as it happens; resolves with how it ended. */
export async function driveLoop(
  input: LoopInput,
  onEvent: (ev: AgentEvent) => void,
): Promise<LoopOutcome> {
  const run = runLoop(input);
  try {
    for (;;) {
      const next = await run.next();
      if (next.done) return next.value;
      onEvent(next.value);
    }
  } catch (e) {
    await run.return(undefined as never).catch(() => {});
    throw e;
  }
}

export async function* runLoop(input: LoopInput): AsyncGenerator<AgentEvent, LoopOutcome> {
  const now = input.now ?? Date.now;
  /** A "context too long" refusal is answered once per step by a compaction and a retry. */
  let overflowStep = 0;
  for (let step = 1;; step++) {
    const { signal } = input;
    if (signal.aborted) return { kind: "stopped", steps: step - 1 };
    if (input.context) {
      input.messages = await input.context.beforeRequest(input.messages, signal);
      if (signal.aborted) return { kind: "stopped", steps: step - 1 };
    }
    yield { type: "step", step, phase: "model" };
    const request = input.buildRequest(input.messages);
    mark(`loop: step ${step} request built`);
    const model = `${request.provider.id}/${request.model.id}`;
    yield { type: "message_start", step, model };
    const answer = new Answer(now);
    const delta = (change: PartChange | null): AgentEvent | null =>
      change && { type: "message_delta", parts: answer.parts, change };
    const calls: ToolCall[] = [];
    const callIds = new Map<number, string>();
    let stopReason: StopReason | undefined;
    let usage: Usage | undefined;
    // Priced at the model's price when the reply ends, so a later price edit keeps history.
    const cost = () => (usage ? costOf(usage, request.model.price) : undefined);
    const end = (
      status: "done" | "stopped" | "error",
      error?: ProviderErrorInfo,
    ): AgentEvent => {
      answer.finish();
      return {
        type: "message_end",
        status,
        parts: answer.parts,
        ...(stopReason && status === "done" ? { stopReason } : {}),
        ...(usage ? { usage, cost: cost() } : {}),
        ...(error ? { error } : {}),
      };
    };
    const keep = () => {
      const msg = assistantMessage(answer.parts, model);
      if (msg) input.messages.push(msg);
      return msg;
    };
    try {
      let streaming = false;
      for await (const ev of retrying(() => input.adapter.stream(request, signal), signal)) {
        if (ev.type === "retry") {
          yield ev;
          continue;
        }
        if (!streaming) {
          mark(`loop: step ${step} first event`);
          streaming = true;
          yield { type: "message_streaming", step };
          yield NO_RETRY; // content flows: the "Reconnecting…" line goes away
        }
        let out: AgentEvent | null = null;
        switch (ev.type) {
          case "text":
          case "thinking":
            out = delta(answer.delta(ev.type, ev.delta));
            break;
          case "thinking_signature":
            out = delta(answer.signature(ev.signature));
            break;
          case "text_signature":
            out = delta(answer.textSignature(ev.signature));
            break;
          case "thinking_opaque":
            out = delta(answer.opaque(ev.data));
            break;
          case "tool_call_start":
            callIds.set(ev.index, ev.id);
            out = delta(answer.toolCallStart(ev.id, ev.name));
            break;
          case "tool_call_delta": {
            const id = callIds.get(ev.index);
            if (id) out = delta(answer.toolCallDelta(id, ev.delta));
            break;
          }
          case "tool_call": {
            const call = { id: ev.id, name: ev.name, args: ev.args, argsError: ev.argsError };
            calls.push(call);
            yield delta(answer.toolCall(ev))!;
            out = { type: "tool_call_requested", call };
            break;
          }
          case "usage":
            usage = ev.usage;
            out = { type: "usage", usage: ev.usage };
            break;
          case "stop":
            stopReason = ev.reason;
            out = { type: "stop_reason", reason: ev.reason };
            break;
        }
        if (out) yield out;
      }
      // Some SDK streams end quietly when aborted: a stop is a stop, not an answer.
      if (signal.aborted) throw abortedError();
    } catch (e) {
      yield NO_RETRY;
      if (signal.aborted || (e instanceof ProviderError && e.info.category === "aborted")) {
        yield end("stopped");
        keep();
        return { kind: "stopped", steps: step };
      }
      const info = e instanceof ProviderError ? e.info : unexpected(e);
      if (
        input.context && overflowStep !== step && isContextOverflow(info) &&
        answer.parts.length === 0
      ) {
        yield { type: "message_discarded" };
        overflowStep = step;
        const compacted = await input.context.onOverflow(signal);
        if (signal.aborted) return { kind: "stopped", steps: step - 1 };
        if (compacted) {
          input.messages = compacted;
          step--; // the same step again, on the compacted conversation
          continue;
        }
        yield { type: "error", error: info };
        return { kind: "error", steps: step, error: info };
      }
      yield end("error", info);
      yield { type: "error", error: info };
      return { kind: "error", steps: step, error: info };
    }
    mark(`loop: step ${step} answer done`);
    if (usage) input.context?.noteUsage(usage);
    yield end("done");
    const msg = keep();
    if (calls.length === 0) {
      // A paused turn (a long server-side step) resumes when its answer is sent back as is.
      if (stopReason === "pause_turn" && msg && step < input.maxSteps) continue;
      return stopReason && CUT_STOPS.has(stopReason)
        ? { kind: "done", steps: step, stop: stopReason as CutStop }
        : { kind: "done", steps: step };
    }

    yield { type: "step", step, phase: "tools" };
    yield* runCalls(input, calls, now);
    mark(`loop: step ${step} tools done`);
    if (signal.aborted) return { kind: "stopped", steps: step };
    if (step >= input.maxSteps) {
      yield { type: "max_steps", steps: step };
      return { kind: "maxSteps", steps: step };
    }
  }
}

const NO_RETRY: AgentEvent = { type: "retry", notice: null };

const unexpected = (e: unknown): ProviderErrorInfo => errorInfo((e as Error)?.message ?? String(e));

/** Read-only calls that may run beside each other. */
const concurrent = (c: CheckedCall | ToolResult): boolean =>
  isChecked(c) && c.tool.kind === "read" && !c.tool.traits?.sequential;

/**
 * Runs one step's calls in order; a run of consecutive read-only calls runs concurrently.
 * Each call is checked once (known tool, arguments that fit), then gated, then run.
 */
async function* runCalls(
  input: LoopInput,
  calls: ToolCall[],
  now: () => number,
): AsyncGenerator<AgentEvent, void> {
  const { signal } = input;
  const checked = calls.map((c) => checkCall(input.tools, c));
  const images: { name: string; images: ImageBlock[] }[] = [];
  let i = 0;
  while (i < calls.length) {
    let n = 1;
    if (concurrent(checked[i])) {
      while (i + n < calls.length && concurrent(checked[i + n])) n++;
    }
    const batch = calls.slice(i, i + n).map((call, k) => ({ call, checked: checked[i + k] }));
    // Each call's verdict: the result it ends with (refused, invalid), or the call to run.
    const verdicts = await Promise.all(batch.map(async ({ checked }) => {
      if (!isChecked(checked)) return checked;
      if (signal.aborted) return STOPPED_RESULT;
      if (!input.gate) return checked;
      const v = await input.gate(checked, signal);
      if (!v.allow) {
        // The model reads the text; the UI translates the refusal's code.
        return {
          content: v.reason,
          isError: true,
          ...(v.refusal ? { meta: { refusal: v.refusal } } : {}),
        };
      }
      // The user's answers reach the tool only, never the model's history.
      return v.answer !== undefined ? { ...checked, answer: v.answer } : checked;
    }));
    for (const v of verdicts) {
      if (!isChecked(v)) continue;
      const { tool: _, ...call } = v;
      yield { type: "tool_call_approved", call };
      yield { type: "tool_call_started", call };
    }
    const results = await Promise.all(
      verdicts.map((v) => isChecked(v) ? runOne(input, v, now) : { result: v, ms: 0 }),
    );
    for (const [k, { call }] of batch.entries()) {
      const { result, ms } = results[k];
      yield { type: "tool_call_finished", call, result, ms };
      input.messages.push({
        role: "tool",
        toolCallId: call.id,
        name: call.name,
        content: resultTextFor(result.content, result.meta, !!input.vision),
        isError: result.isError,
      });
      if (input.vision) images.push({ name: call.name, images: imagesOf(result.meta) });
    }
    i += n;
  }
  // After every result of the step (tool messages must follow their calls directly).
  const withImages = toolImagesMessage(images);
  if (withImages) input.messages.push(withImages);
}

async function runOne(
  input: LoopInput,
  call: CheckedCall,
  now: () => number,
): Promise<{ result: ToolResult; ms: number }> {
  const { signal } = input;
  const t0 = now();
  const done = (result: ToolResult) => ({ result, ms: now() - t0 });
  mark(`tool ${call.name}: start`);
  try {
    const result = input.runTool
      ? await input.runTool(call, signal)
      : await call.tool.run(call.args, { workspace: input.workspace, signal, answer: call.answer });
    return done(signal.aborted && result.isError ? STOPPED_RESULT : result);
  } catch (e) {
    return done({
      content: `${call.name} failed: ${(e as Error)?.message ?? String(e)}`,
      isError: true,
    });
  }
}
