/** `openai-responses` (POST /v1/responses): fetch + the shared SSE parser (see openai_chat.ts). */
import type { Adapter, LlmMessage, StreamEvent, StreamRequest } from "./types.ts";
import { openaiEffort } from "./effort.ts";
import { finishCall, type PendingCall } from "./tool_args.ts";
import { openaiHeaders, usageFromOpenAI } from "./openai_chat.ts";
import { postSse, sseJson } from "./http_stream.ts";
import { abortedError, ProviderError, truncatedError } from "./errors.ts";
import { v1 } from "./urls.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

export function toResponsesInput(messages: LlmMessage[]): Json[] {
  const out: Json[] = [];
  for (const m of messages) {
    if (m.role === "user") {
      out.push({
        role: "user",
        content: m.content.map((b) =>
          b.type === "text"
            ? { type: "input_text", text: b.text }
            : { type: "input_image", image_url: `data:${b.mimeType};base64,${b.data}` }
        ),
      });
    } else if (m.role === "assistant") {
      const text = m.content.filter((b) => b.type === "text").map((b) =>
        (b as { text: string }).text
      ).join("");
      if (text) out.push({ role: "assistant", content: [{ type: "output_text", text }] });
      for (const c of m.content) {
        if (c.type === "tool_call") {
          out.push({
            type: "function_call",
            call_id: c.id,
            name: c.name,
            arguments: JSON.stringify(c.args),
          });
        }
      }
    } else {
      out.push({ type: "function_call_output", call_id: m.toolCallId, output: m.content });
    }
  }
  return out;
}

export function responsesBody(req: StreamRequest): Json {
  const effort = openaiEffort(req.effort);
  return {
    model: req.model.id,
    instructions: req.system,
    input: toResponsesInput(req.messages),
    stream: true,
    store: false,
    max_output_tokens: req.maxTokens,
    ...(req.tools.length
      ? {
        tools: req.tools.map((t) => ({
          type: "function",
          name: t.name,
          description: t.description,
          parameters: t.parameters,
          strict: false,
        })),
      }
      : {}),
    ...(effort ? { reasoning: { effort, summary: "auto" } } : {}),
  };
}

export const openaiResponses: Adapter = {
  async *stream(req: StreamRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    const url = `${v1(req.provider.baseUrl)}/responses`;
    const calls = new Map<string, PendingCall>(); // by item id
    let status = "";
    let ended = false;
    let n = 0;
    const body = responsesBody(req);
    for await (const sse of postSse(url, openaiHeaders(req.provider.apiKey), body, signal)) {
      if (sse.data === "[DONE]") break;
      const ev: Json = sseJson(sse.data, url);
      switch (ev.type) {
        case "response.output_text.delta":
          if (ev.delta) yield { type: "text", delta: ev.delta };
          break;
        case "response.reasoning_summary_text.delta":
        case "response.reasoning_text.delta":
          if (ev.delta) yield { type: "thinking", delta: ev.delta };
          break;
        case "response.output_item.added":
          if (ev.item?.type === "function_call") {
            const c = { index: n++, id: ev.item.call_id, name: ev.item.name, json: "" };
            calls.set(ev.item.id, c);
            yield { type: "tool_call_start", index: c.index, id: c.id, name: c.name };
          }
          break;
        case "response.function_call_arguments.delta": {
          const c = calls.get(ev.item_id);
          if (c && ev.delta) {
            c.json += ev.delta;
            yield { type: "tool_call_delta", index: c.index, delta: ev.delta };
          }
          break;
        }
        case "response.output_item.done":
          if (ev.item?.type === "function_call") {
            const c = calls.get(ev.item.id);
            if (c) {
              c.json = ev.item.arguments ?? c.json;
              calls.delete(ev.item.id);
              yield finishCall(c);
            }
          }
          break;
        case "response.completed":
        case "response.incomplete":
          ended = true;
          status = ev.response?.status ?? "";
          if (ev.response?.usage) {
            yield { type: "usage", usage: usageFromOpenAI(ev.response.usage) };
          }
          break;
        case "response.failed":
        case "error": {
          const msg = ev.response?.error?.message ?? ev.message ?? "response failed";
          throw new ProviderError({
            category: "server",
            message: msg,
            url,
            upstream: JSON.stringify(ev).slice(0, 4000),
            chain: [msg],
          });
        }
      }
    }
    if (signal.aborted) throw abortedError();
    if (!ended) throw truncatedError(url, "response.completed");
    for (const c of calls.values()) yield finishCall(c); // calls whose done event never came
    yield {
      type: "stop",
      reason: n > 0
        ? "tool_use"
        : status === "incomplete"
        ? "max_tokens"
        : status === "completed"
        ? "end"
        : "other",
    };
  },
};
