/**
 * `openai-chat-completions` (POST /v1/chat/completions): fetch + the shared SSE parser.
 * Not `npm:openai`: importing that SDK cost ~80 ms and ~28 MB RSS on every start
 * , for a streaming POST the other adapters already do in a few lines.
 */
import {
  type Adapter,
  forTarget,
  type LlmMessage,
  type StopReason,
  type StreamEvent,
  type StreamRequest,
  type Usage,
} from "./types.ts";
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

/**
 * The reasoning an assistant message with tool calls carries back: thinking models of
 * OpenAI-compatible APIs (DeepSeek, xAI, OpenRouter) refuse or lose the thread when a
 * tool-call step comes back without the reasoning it streamed, in the field it used.
 */
function reasoningBack(m: Extract<LlmMessage, { role: "assistant" }>): Json {
  const out: Json = {};
  for (const b of m.content) {
    if (b.type !== "thinking" || !b.opaque) continue;
    const field = b.opaque.field;
    if (field === "reasoning_content" || field === "reasoning") {
      out[field] = (out[field] ?? "") + b.text;
    }
    if (Array.isArray(b.opaque.reasoning_details)) {
      out.reasoning_details = [...(out.reasoning_details ?? []), ...b.opaque.reasoning_details];
    }
  }
  return out;
}

export function toChatMessages(
  system: string,
  messages: LlmMessage[],
  target?: StreamRequest,
): Json[] {
  const out: Json[] = [{ role: "system", content: system }];
  for (const original of messages) {
    const m = original.role === "assistant" && target ? forTarget(original, target) : original;
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
        ...(calls.length ? reasoningBack(m) : {}),
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
    messages: toChatMessages(req.system, req.messages, req),
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
    // Only OpenAI's own API is known to take it; strict compatible servers refuse unknown keys.
    ...(req.cacheKey && /(^|\.)openai\.com$/.test(new URL(req.provider.baseUrl).hostname)
      ? { prompt_cache_key: req.cacheKey }
      : {}),
  });
}

/** Usage of the chat and Responses APIs (DeepSeek names its cache hits its own way). */
export function usageFromOpenAI(u: Json): Usage {
  const cached = u?.prompt_tokens_details?.cached_tokens ??
    u?.input_tokens_details?.cached_tokens ?? u?.prompt_cache_hit_tokens ?? 0;
  const prompt = u?.prompt_tokens ?? u?.input_tokens ?? 0;
  return {
    input: Math.max(0, prompt - cached),
    output: u?.completion_tokens ?? u?.output_tokens ?? 0,
    cacheRead: cached,
    cacheWrite: 0,
    reasoning: u?.completion_tokens_details?.reasoning_tokens ??
      u?.output_tokens_details?.reasoning_tokens ?? 0,
  };
}

/**
 * OpenRouter-style `reasoning_details` streamed in pieces: consecutive pieces of one
 * entry (same `index` and `type`) are joined, so the list goes back as the model wrote it.
 */
function addDetails(list: Json[], pieces: Json[]): void {
  for (const p of pieces) {
    if (typeof p !== "object" || p === null) continue;
    const last = list[list.length - 1];
    if (last && last.type === p.type && (last.index ?? 0) === (p.index ?? 0)) {
      for (const k of ["text", "summary", "data"]) {
        if (typeof p[k] === "string") last[k] = (last[k] ?? "") + p[k];
      }
      for (const [k, v] of Object.entries(p)) {
        if (!["text", "summary", "data"].includes(k) && v !== null && v !== undefined) last[k] = v;
      }
    } else list.push({ ...p });
  }
}

const CHAT_STOPS: Record<string, StopReason> = {
  stop: "end",
  length: "max_tokens",
  content_filter: "content_filter",
  tool_calls: "tool_use",
  function_call: "tool_use",
};

/** An error object sent inside an OpenAI-style stream (`{error: {message, type, code}}`). */
export function streamError(err: Json, url: string, raw: string): ProviderError {
  const msg = typeof err?.message === "string" ? err.message : "stream error";
  const kind = err?.type ?? err?.code;
  const status = kind === "rate_limit_exceeded" || kind === "rate_limit_error"
    ? 429
    : kind === "server_error" || kind === "overloaded_error"
    ? 503
    : kind === "insufficient_quota"
    ? 402
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
    let refused = false;
    // Which field the reasoning streamed in (and OpenRouter's details): said once the
    // reasoning ends, so it belongs to the thinking part that just streamed.
    let field: string | null = null;
    let reasoningOpen = false;
    const details: Json[] = [];
    const reasoningEnd = (): StreamEvent | null => {
      if (!reasoningOpen) return null;
      reasoningOpen = false;
      return {
        type: "thinking_opaque",
        data: { field, ...(details.length ? { reasoning_details: details } : {}) },
      };
    };
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
      const key = typeof d.reasoning_content === "string"
        ? "reasoning_content"
        : typeof d.reasoning === "string"
        ? "reasoning"
        : null;
      const reasoning = key ? d[key] : null;
      if (Array.isArray(d.reasoning_details) && d.reasoning_details.length) {
        addDetails(details, d.reasoning_details);
        reasoningOpen = true;
      }
      if (reasoning) {
        field = key;
        reasoningOpen = true;
        yield { type: "thinking", delta: reasoning };
      }
      if ((typeof d.content === "string" && d.content) || d.tool_calls?.length) {
        const end = reasoningEnd();
        if (end) yield end;
      }
      if (typeof d.refusal === "string" && d.refusal) {
        // OpenAI's structured refusal: the model's words, and the reason the answer ends.
        refused = true;
        yield { type: "text", delta: d.refusal };
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
    const end = reasoningEnd();
    if (end) yield end;
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
      reason: calls.size ? "tool_use" : refused ? "refusal" : CHAT_STOPS[finish] ?? "other",
    };
  },
};
