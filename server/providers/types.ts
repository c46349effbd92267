/**
 * The normalised model interface. Every wire adapter (openai-chat, openai-responses,
 * anthropic, gemini, demo) turns its protocol into `StreamEvent`s and takes its input
 * as `LlmMessage`s; the agent loop never sees a wire format.
 */

export {
  API_FORMATS,
  type ApiFormat,
  type Effort,
  EFFORT_LEVELS,
  type ModelInfo,
  type ProviderConfig,
  type ToolSpec,
} from "../../protocol/provider_types.ts";
import type { Effort, ModelInfo, ProviderConfig, ToolSpec } from "../../protocol/provider_types.ts";

// ---------- conversation ----------

export interface TextBlock {
  type: "text";
  text: string;
}
export interface ImageBlock {
  type: "image";
  mimeType: string;
  /** base64 */
  data: string;
}
export interface ThinkingBlock {
  type: "thinking";
  text: string;
  /** Provider signature needed to send thinking back (Anthropic). */
  signature?: string;
}
export interface ToolCallBlock {
  type: "tool_call";
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** Opaque provider data to echo back (e.g. Gemini thought signatures). */
  providerData?: Record<string, unknown>;
}

export type LlmMessage =
  | { role: "user"; content: (TextBlock | ImageBlock)[] }
  | { role: "assistant"; content: (TextBlock | ThinkingBlock | ToolCallBlock)[] }
  | { role: "tool"; toolCallId: string; name: string; content: string; isError: boolean };

export interface StreamRequest {
  provider: ProviderConfig;
  model: ModelInfo;
  system: string;
  messages: LlmMessage[];
  tools: ToolSpec[];
  effort: Effort;
  /** Always sent (SPEC §2.8). */
  maxTokens: number;
}

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export type StopReason = "end" | "tool_use" | "max_tokens" | "other";

/** The normalised stream every adapter produces. Errors are thrown as `ProviderError`. */
export type StreamEvent =
  | { type: "text"; delta: string }
  | { type: "thinking"; delta: string }
  | { type: "thinking_signature"; signature: string }
  /** A tool call began streaming (`index` orders calls within one response). */
  | { type: "tool_call_start"; index: number; id: string; name: string }
  /** Raw JSON argument text as it streams (for live display only). */
  | { type: "tool_call_delta"; index: number; delta: string }
  /** The complete call with parsed arguments. */
  | {
    type: "tool_call";
    index: number;
    id: string;
    name: string;
    args: Record<string, unknown>;
    /** Set when the model's argument text was not a JSON object. */
    argsError?: string;
    providerData?: Record<string, unknown>;
  }
  | { type: "usage"; usage: Usage }
  | { type: "stop"; reason: StopReason };

export interface Adapter {
  stream(req: StreamRequest, signal: AbortSignal): AsyncIterable<StreamEvent>;
}

export const emptyUsage = (): Usage => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
