/** `anthropic-messages` (POST /v1/messages): fetch + the shared SSE parser. */
import type { Adapter, LlmMessage, StreamEvent, StreamRequest, Usage } from "./types.ts";
import { anthropicThinking } from "./effort.ts";
import { finishCall, type PendingCall } from "./tool_args.ts";
import { postSse, sseJson } from "./http_stream.ts";
import { ProviderError, truncatedError } from "./errors.ts";
import { v1 } from "./urls.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

export function toAnthropicMessages(messages: LlmMessage[]): Json[] {
  const out: Json[] = [];
  const push = (role: "user" | "assistant", blocks: Json[]) => {
    const last = out[out.length - 1];
    if (last?.role === role) last.content.push(...blocks); // the API wants alternating roles
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
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
          if (b.signature) {
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

export function anthropicBody(req: StreamRequest): Json {
  const thinking = anthropicThinking(req.effort, req.maxTokens);
  return {
    model: req.model.id,
    system: [{ type: "text", text: req.system, cache_control: { type: "ephemeral" } }],
    messages: toAnthropicMessages(req.messages),
    max_tokens: req.maxTokens,
    stream: true,
    ...(req.tools.length
      ? {
        tools: req.tools.map((t) => ({
          name: t.name,
          description: t.description,
          input_schema: t.parameters,
        })),
      }
      : {}),
    ...(thinking ? { thinking } : {}),
  };
}

export const anthropic: Adapter = {
  async *stream(req: StreamRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    const url = `${v1(req.provider.baseUrl)}/messages`;
    const headers = { "x-api-key": req.provider.apiKey, "anthropic-version": "2023-06-01" };
    const usage: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    const blocks = new Map<number, { kind: string; call?: PendingCall }>();
    let calls = 0;
    let stop: string | null = null;
    let ended = false;
    for await (const ev of postSse(url, headers, anthropicBody(req), signal)) {
      if (ev.event === "ping") continue;
      const d: Json = sseJson(ev.data, url);
      switch (d.type) {
        case "message_start": {
          const u = d.message?.usage ?? {};
          usage.input = u.input_tokens ?? 0;
          usage.cacheRead = u.cache_read_input_tokens ?? 0;
          usage.cacheWrite = u.cache_creation_input_tokens ?? 0;
          usage.output = u.output_tokens ?? 0;
          break;
        }
        case "content_block_start": {
          const b = d.content_block ?? {};
          if (b.type === "tool_use") {
            const call = { index: calls++, id: b.id, name: b.name, json: "" };
            blocks.set(d.index, { kind: "tool_use", call });
            yield { type: "tool_call_start", index: call.index, id: call.id, name: call.name };
          } else blocks.set(d.index, { kind: b.type });
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
          if (d.usage?.output_tokens !== undefined) usage.output = d.usage.output_tokens;
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
    yield {
      type: "stop",
      reason: stop === "tool_use"
        ? "tool_use"
        : stop === "max_tokens"
        ? "max_tokens"
        : stop === "end_turn" || stop === "stop_sequence"
        ? "end"
        : "other",
    };
  },
};
