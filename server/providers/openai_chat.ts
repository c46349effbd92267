/**
 * `openai-chat-completions` (POST /v1/chat/completions): fetch + the shared SSE parser.
 * Not `npm:openai`: importing that SDK cost ~80 ms and ~28 MB RSS on every start
 * (issue #15), for a streaming POST the other adapters already do in a few lines.
 */
import type { Adapter, LlmMessage, StreamEvent, StreamRequest, Usage } from "./types.ts";
import { openaiEffort } from "./effort.ts";
import { ThinkTagSplitter } from "./think_tags.ts";
import { finishCall, type PendingCall } from "./tool_args.ts";
import { abortedError, ProviderError, truncatedError } from "./errors.ts";
import { postSse, sseJson } from "./http_stream.ts";
import {
  chatCompletionsUrl,
  chunkUsage,
  compatHeaders,
  maxTokensField,
  shapeChatBody,
} from "./dialects.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

export function toChatMessages(system: string, messages: LlmMessage[]): Json[] {
  const out: Json[] = [{ role: "system", content: system }];
  for (const m of messages) {
    if (m.role === "user") {
      const onlyText = m.content.every((b) => b.type === "text");
      out.push({
        role: "user",
        content: onlyText
          ? m.content.map((b) => (b as { text: string }).text).join("\n\n")
          : m.content.map((b) =>
            b.type === "text"
              ? { type: "text", text: b.text }
              : { type: "image_url", image_url: { url: `data:${b.mimeType};base64,${b.data}` } }
          ),
      });
    } else if (m.role === "assistant") {
      const text = m.content.filter((b) => b.type === "text").map((b) =>
        (b as { text: string }).text
      ).join("");
      const calls = m.content.filter((b) => b.type === "tool_call");
      out.push({
        role: "assistant",
        content: text || null,
        ...(calls.length
          ? {
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: "function",
              function: { name: c.name, arguments: JSON.stringify(c.args) },
            })),
          }
          : {}),
      });
    } else {
      out.push({ role: "tool", tool_call_id: m.toolCallId, content: m.content });
    }
  }
  return out;
}

/** The exact request body (exported so tests and the request preview see it). */
export function chatBody(req: StreamRequest): Json {
  const effort = openaiEffort(req.effort);
  // OpenAI's own API (and Azure's) take max_completion_tokens (reasoning models reject
  // max_tokens); every other compatible server takes max_tokens.
  const maxKey = maxTokensField(req.provider);
  return shapeChatBody(req.provider, {
    model: req.model.id,
    messages: toChatMessages(req.system, req.messages),
    stream: true,
    stream_options: { include_usage: true },
    [maxKey]: req.maxTokens,
    ...(req.tools.length
      ? {
        tools: req.tools.map((t) => ({
          type: "function",
          function: { name: t.name, description: t.description, parameters: t.parameters },
        })),
      }
      : {}),
    ...(effort ? { reasoning_effort: effort } : {}),
  });
}

export function usageFromOpenAI(u: Json): Usage {
  const cached = u?.prompt_tokens_details?.cached_tokens ??
    u?.input_tokens_details?.cached_tokens ?? 0;
  const prompt = u?.prompt_tokens ?? u?.input_tokens ?? 0;
  return {
    input: Math.max(0, prompt - cached),
    output: u?.completion_tokens ?? u?.output_tokens ?? 0,
    cacheRead: cached,
    cacheWrite: 0,
  };
}

/** An error object sent inside an OpenAI-style stream (`{error: {message, type, code}}`). */
export function streamError(err: Json, url: string, raw: string): ProviderError {
  const msg = typeof err?.message === "string" ? err.message : "stream error";
  const kind = err?.type ?? err?.code;
  const status = kind === "rate_limit_exceeded" || kind === "rate_limit_error"
    ? 429
    : kind === "server_error" || kind === "overloaded_error"
    ? 503
    : null;
  return new ProviderError({
    message: kind ? `${kind}: ${msg}` : msg,
    status,
    url,
    upstream: raw.slice(0, 4000),
    chain: [String(kind ?? "error"), msg],
  });
}

/** The headers of an OpenAI-compatible request (no key: many local servers need none). */
export function openaiHeaders(apiKey: string): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

export const openaiChat: Adapter = {
  async *stream(req: StreamRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    const url = chatCompletionsUrl(req.provider, req.model.id);
    const think = new ThinkTagSplitter();
    const calls = new Map<number, PendingCall>();
    let finish: string | null = null;
    for await (
      const ev of postSse(url, compatHeaders(req.provider), chatBody(req), signal)
    ) {
      if (ev.data === "[DONE]") break;
      const chunk: Json = sseJson(ev.data, url);
      if (chunk.error) throw streamError(chunk.error, url, ev.data);
      const reported = chunkUsage(chunk);
      if (reported) yield { type: "usage", usage: usageFromOpenAI(reported) };
      const ended = chunk.choices?.find((c: Json) => c?.finish_reason);
      if (ended) finish = ended.finish_reason;
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const d = choice.delta ?? {};
      const reasoning = d.reasoning_content ?? d.reasoning;
      if (typeof reasoning === "string" && reasoning) {
        yield { type: "thinking", delta: reasoning };
      }
      if (typeof d.content === "string" && d.content) {
        for (const piece of think.push(d.content)) {
          yield piece.type === "text"
            ? { type: "text", delta: piece.delta }
            : { type: "thinking", delta: piece.delta };
        }
      }
      for (const tc of d.tool_calls ?? []) {
        let c = calls.get(tc.index);
        if (!c) {
          c = {
            index: tc.index,
            id: tc.id ?? `call_${tc.index}`,
            name: tc.function?.name ?? "",
            json: "",
          };
          calls.set(tc.index, c);
          yield { type: "tool_call_start", index: c.index, id: c.id, name: c.name };
        }
        const piece = tc.function?.arguments;
        if (piece) {
          c.json += piece;
          yield { type: "tool_call_delta", index: c.index, delta: piece };
        }
      }
    }
    if (signal.aborted) throw abortedError();
    for (const piece of think.end()) {
      yield piece.type === "text"
        ? { type: "text", delta: piece.delta }
        : { type: "thinking", delta: piece.delta };
    }
    // A missing finish_reason is the sign of a cut stream (some servers send no
    // `[DONE]`); its half-streamed tool calls are not emitted.
    if (finish === null) throw truncatedError(url, "finish_reason / [DONE]");
    for (const c of [...calls.values()].sort((a, b) => a.index - b.index)) yield finishCall(c);
    yield {
      type: "stop",
      reason: calls.size
        ? "tool_use"
        : finish === "length"
        ? "max_tokens"
        : finish === "stop"
        ? "end"
        : "other",
    };
  },
};
