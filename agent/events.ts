/**
 * What a run of the loop reports, in order: one typed event per thing that happened.
 * The loop owns no storage and no clients; whoever runs it (the server's turn, a
 * sub-agent, a test) reads these and keeps what it needs.
 */
import type { Part } from "../protocol/domain.ts";
import type { CostResult } from "../protocol/pricing.ts";
import type { StopReason, Usage } from "./providers/types.ts";
import type { ProviderErrorInfo } from "./providers/errors.ts";
import type { RetryNotice } from "./providers/retry.ts";
import type { ToolResult } from "../tools/types.ts";
import type { ToolCall } from "./tool_call.ts";
import type { PartChange } from "./answer.ts";

export type AgentEvent =
  /** A step began: a model request (`model`) or the step's tool calls (`tools`). */
  | { type: "step"; step: number; phase: "model" | "tools" }
  /** A retry of the request is due (null: content flows again, the notice goes away). */
  | { type: "retry"; notice: RetryNotice | null }
  /** A model answer is being requested (`model` is `provider/model`). */
  | { type: "message_start"; step: number; model: string }
  /** The answer began streaming (its first piece arrived). */
  | { type: "message_streaming"; step: number }
  /** The answer's parts changed (`parts` is the whole answer so far; `change` what changed). */
  | { type: "message_delta"; parts: readonly Part[]; change: PartChange }
  /** The model asked for a tool call (its arguments are complete). */
  | { type: "tool_call_requested"; call: ToolCall }
  | { type: "usage"; usage: Usage }
  | { type: "stop_reason"; reason: StopReason }
  /** The answer ended; `cost` is its usage at the model's price. */
  | {
    type: "message_end";
    status: "done" | "stopped" | "error";
    parts: readonly Part[];
    stopReason?: StopReason;
    usage?: Usage;
    cost?: CostResult;
    error?: ProviderErrorInfo;
  }
  /** An answer with nothing in it was dropped (a request refused as too long, retried). */
  | { type: "message_discarded" }
  /** The gate let the call run. */
  | { type: "tool_call_approved"; call: ToolCall }
  | { type: "tool_call_started"; call: ToolCall }
  /** The call's result, run or not (refused, unknown tool, bad arguments, stopped). */
  | { type: "tool_call_finished"; call: ToolCall; result: ToolResult; ms: number }
  /** The run failed (the provider's error, or an unexpected one). */
  | { type: "error"; error: ProviderErrorInfo }
  /** The step budget ended the run while the model still had calls to make. */
  | { type: "max_steps"; steps: number };

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
