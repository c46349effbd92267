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
  /** Gemini's `thoughtSignature` when the part carried one (sent back on the same part). */
  signature?: string;
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
  /** Provider signature needed to send thinking back (Anthropic, Gemini). */
  signature?: string;
  /**
   * Reasoning the API wants back verbatim and no other model can read: Anthropic's
   * `redacted` data, a Responses reasoning `item` (with `encrypted_content`), the chat
   * `field` the text streamed in (`reasoning_content` / `reasoning`) and `reasoning_details`.
   */
  opaque?: Record<string, unknown>;
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
  | {
    role: "assistant";
    content: (TextBlock | ThinkingBlock | ToolCallBlock)[];
    /**
     * `providerId/modelId` that wrote it: signatures and opaque reasoning go back only to
     * that model (absent: taken as the current model's own).
     */
    source?: string;
  }
  | { role: "tool"; toolCallId: string; name: string; content: string; isError: boolean };

export interface StreamRequest {
  provider: ProviderConfig;
  model: ModelInfo;
  system: string;
  messages: LlmMessage[];
  tools: ToolSpec[];
  effort: Effort;
  /** Always sent. */
  maxTokens: number;
  /** Stable per task: routes its requests to the same prompt cache (OpenAI `prompt_cache_key`). */
  cacheKey?: string;
}

/**
 * Tokens of one answer, from the stream's final numbers. `input` is the prompt billed at
 * the full price (cache reads and writes excluded); `reasoning` is the part of `output`
 * the model spent thinking (already counted in `output`).
 */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

/**
 * Why an answer ended. `refusal`: the model declined; `content_filter`: the provider's
 * safety system cut or blocked it; `max_tokens`: the output limit cut it; `pause_turn`:
 * the provider paused a long turn, to be resumed by sending the answer back as it is.
 */
export type StopReason =
  | "end"
  | "tool_use"
  | "max_tokens"
  | "refusal"
  | "content_filter"
  | "pause_turn"
  | "other";

/** The normalised stream every adapter produces. Errors are thrown as `ProviderError`. */
export type StreamEvent =
  | { type: "text"; delta: string }
  | { type: "thinking"; delta: string }
  | { type: "thinking_signature"; signature: string }
  /** Gemini's signature on a text part: kept on the current text part. */
  | { type: "text_signature"; signature: string }
  /**
   * Opaque reasoning to send back (see `ThinkingBlock.opaque`): it belongs to the thinking
   * part that just streamed, or stands as a thinking part of its own when none did.
   */
  | { type: "thinking_opaque"; data: Record<string, unknown> }
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

export const emptyUsage = (): Usage => ({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  reasoning: 0,
});

/** `providerId/modelId` of a request: what an assistant message's `source` is compared with. */
export const sourceOf = (req: Pick<StreamRequest, "provider" | "model">): string =>
  `${req.provider.id}/${req.model.id}`;

type AssistantMessage = Extract<LlmMessage, { role: "assistant" }>;

/**
 * The assistant message as `req`'s model may take it: another model's signatures,
 * encrypted or redacted reasoning and tool-call provider data are dropped (the target
 * API would refuse them or, worse, misread them); text, plain thinking and calls stay.
 */
export function forTarget(m: AssistantMessage, req: StreamRequest): AssistantMessage {
  if (!m.source || m.source === sourceOf(req)) return m;
  return {
    role: "assistant",
    source: m.source,
    content: m.content.map((b) => {
      if (b.type === "tool_call") {
        return { type: "tool_call", id: b.id, name: b.name, args: b.args };
      }
      if (b.type === "thinking") return { type: "thinking", text: b.text };
      return { type: "text", text: b.text };
    }),
  };
}
