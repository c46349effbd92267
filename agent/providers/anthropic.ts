/** `anthropic-messages` (POST /v1/messages): fetch + the shared SSE parser. */
import {
  type Adapter,
  emptyUsage,
  forTarget,
  type LlmMessage,
  type StopReason,
  type StreamEvent,
  type StreamRequest,
} from "./types.ts";
import { anthropicThinking } from "./effort.ts";
import { finishCall, type PendingCall } from "./tool_args.ts";
import { postSse, sseJson } from "./http_stream.ts";
import { ProviderError, truncatedError } from "./errors.ts";
import { v1 } from "./urls.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

export function toAnthropicMessages(messages: LlmMessage[], target?: StreamRequest): Json[] {
  const out: Json[] = [];
  const push = (role: "user" | "assistant", blocks: Json[]) => {
    const last = out[out.length - 1];
    if (last?.role === role) last.content.push(...blocks); // the API wants alternating roles
    else out.push({ role, content: blocks });
  };
  for (const original of messages) {
    const m = original.role === "assistant" && target ? forTarget(original, target) : original;
    if (m.role === "user") {
      push(
        "user",
        m.content.map((b) =>
          b.type === "text"
            ? { type: "text", text: b.text }
            : { type: "image", source: { type: "base64", media_type: b.mimeType, data: b.data } }
        ),
      );
    } else if (m.role === "assistant") {
      const blocks: Json[] = [];
      for (const b of m.content) {
        if (b.type === "thinking") {
          // Only thinking the API signed goes back (it verifies every block).
          if (typeof b.opaque?.redacted === "string") {
            blocks.push({ type: "redacted_thinking", data: b.opaque.redacted });
          } else if (b.signature) {
            blocks.push({ type: "thinking", thinking: b.text, signature: b.signature });
          }
        } else if (b.type === "text") {
          if (b.text) blocks.push({ type: "text", text: b.text });
        } else blocks.push({ type: "tool_use", id: b.id, name: b.name, input: b.args });
      }
      if (blocks.length) push("assistant", blocks);
    } else {
      push("user", [{
        type: "tool_result",
        tool_use_id: m.toolCallId,
        content: m.content,
        is_error: m.isError,
      }]);
    }
  }
  return out;
}

const EPHEMERAL = { type: "ephemeral" } as const;

/**
 * Marks the newest message's last cacheable block: the whole conversation up to it is
 * written to the cache, and the next step (which adds only its answer and tool results)
 * reads it back instead of paying for it again. Thinking blocks cannot carry a mark.
 */
function markNewest(messages: Json[]): void {
  const last = messages[messages.length - 1];
  const blocks: Json[] = last?.content ?? [];
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i];
    if (b.type === "thinking" || b.type === "redacted_thinking") continue;
    blocks[i] = { ...b, cache_control: EPHEMERAL };
    return;
  }
}

/**
 * The request body. Prompt caching: tools and system prompt (the same every step) end
 * with a breakpoint each, and a rolling one sits on the newest message (3 of the 4 the
 * API allows); the tools come first in the cached prefix, so a breakpoint on the last
 * tool covers them all.
 */
export function anthropicBody(req: StreamRequest): Json {
  const thinking = anthropicThinking(req.effort, req.maxTokens);
  const messages = toAnthropicMessages(req.messages, req);
  markNewest(messages);
  return {
    model: req.model.id,
    system: [{ type: "text", text: req.system, cache_control: EPHEMERAL }],
    messages,
    max_tokens: req.maxTokens,
    stream: true,
    ...(req.tools.length
      ? {
        tools: req.tools.map((t, i) => ({
          name: t.name,
          description: t.description,
          input_schema: t.parameters,
          ...(i === req.tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
        })),
      }
      : {}),
    ...(thinking ? { thinking } : {}),
  };
}

const ANTHROPIC_STOPS: Record<string, StopReason> = {
  end_turn: "end",
  stop_sequence: "end",
  tool_use: "tool_use",
  max_tokens: "max_tokens",
  model_context_window_exceeded: "max_tokens",
  refusal: "refusal",
  pause_turn: "pause_turn",
};

/** Takes the counts a usage object has: `message_delta`'s are the final ones. */
function addUsage(usage: ReturnType<typeof emptyUsage>, u: Json): void {
  if (typeof u?.input_tokens === "number") usage.input = u.input_tokens;
  if (typeof u?.cache_read_input_tokens === "number") usage.cacheRead = u.cache_read_input_tokens;
  if (typeof u?.cache_creation_input_tokens === "number") {
    usage.cacheWrite = u.cache_creation_input_tokens;
  }
  if (typeof u?.output_tokens === "number") usage.output = u.output_tokens;
}

export const anthropic: Adapter = {
  async *stream(req: StreamRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    const url = `${v1(req.provider.baseUrl)}/messages`;
    const headers = { "x-api-key": req.provider.apiKey, "anthropic-version": "2023-06-01" };
    const usage = emptyUsage();
    const blocks = new Map<number, { kind: string; call?: PendingCall }>();
    let calls = 0;
    let stop: string | null = null;
    let ended = false;
    for await (const ev of postSse(url, headers, anthropicBody(req), signal)) {
      if (ev.event === "ping") continue;
      const d: Json = sseJson(ev.data, url);
      switch (d.type) {
        case "message_start":
          addUsage(usage, d.message?.usage);
          break;
        case "content_block_start": {
          const b = d.content_block ?? {};
          if (b.type === "tool_use") {
            const call = { index: calls++, id: b.id, name: b.name, json: "" };
            blocks.set(d.index, { kind: "tool_use", call });
            yield { type: "tool_call_start", index: call.index, id: call.id, name: call.name };
          } else {
            blocks.set(d.index, { kind: b.type });
            if (b.type === "redacted_thinking" && typeof b.data === "string") {
              yield { type: "thinking_opaque", data: { redacted: b.data } };
            }
          }
          break;
        }
        case "content_block_delta": {
          const delta = d.delta ?? {};
          if (delta.type === "text_delta" && delta.text) yield { type: "text", delta: delta.text };
          else if (delta.type === "thinking_delta" && delta.thinking) {
            yield { type: "thinking", delta: delta.thinking };
          } else if (delta.type === "signature_delta") {
            yield { type: "thinking_signature", signature: delta.signature };
          } else if (delta.type === "input_json_delta") {
            const call = blocks.get(d.index)?.call;
            if (call && delta.partial_json) {
              call.json += delta.partial_json;
              yield { type: "tool_call_delta", index: call.index, delta: delta.partial_json };
            }
          }
          break;
        }
        case "content_block_stop": {
          const call = blocks.get(d.index)?.call;
          if (call) yield finishCall(call);
          break;
        }
        case "message_stop":
          ended = true;
          break;
        case "message_delta":
          if (d.delta?.stop_reason) stop = d.delta.stop_reason;
          addUsage(usage, d.usage);
          break;
        case "error": {
          const type = d.error?.type ?? "error";
          const msg = d.error?.message ?? "stream error";
          const status = type === "overloaded_error"
            ? 529
            : type === "rate_limit_error"
            ? 429
            : null;
          throw new ProviderError({
            message: `${type}: ${msg}`,
            status,
            url,
            upstream: ev.data.slice(0, 4000),
            chain: [type, msg],
          });
        }
      }
    }
    if (!ended) throw truncatedError(url, "message_stop");
    yield { type: "usage", usage };
    yield { type: "stop", reason: (stop && ANTHROPIC_STOPS[stop]) || "other" };
  },
};
