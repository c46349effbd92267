/** `openai-responses` (POST /v1/responses): fetch + the shared SSE parser (see openai_chat.ts). */
import {
  type Adapter,
  forTarget,
  type LlmMessage,
  type StopReason,
  type StreamEvent,
  type StreamRequest,
} from "./types.ts";
import { openaiEffort } from "./effort.ts";
import { finishCall, type PendingCall } from "./tool_args.ts";
import { openaiHeaders, streamError, usageFromOpenAI } from "./openai_chat.ts";
import { postSse, sseJson } from "./http_stream.ts";
import { abortedError, ProviderError, truncatedError } from "./errors.ts";
import { v1 } from "./urls.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/**
 * A stored reasoning item as input again. With `store: false` the server keeps nothing,
 * so an item goes back only with its `encrypted_content` (an id alone would not resolve).
 */
function reasoningItem(item: Json): Json | null {
  if (typeof item?.encrypted_content !== "string" || !item.encrypted_content) return null;
  return {
    type: "reasoning",
    ...(item.id ? { id: item.id } : {}),
    summary: Array.isArray(item.summary) ? item.summary : [],
    encrypted_content: item.encrypted_content,
  };
}

export function toResponsesInput(messages: LlmMessage[], target?: StreamRequest): Json[] {
  const out: Json[] = [];
  for (const original of messages) {
    const m = original.role === "assistant" && target ? forTarget(original, target) : original;
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
      // In the order the model produced them: a reasoning item stays before the message
      // or call it led to, as the API expects.
      const start = out.length;
      let text = "";
      const flush = () => {
        if (text) out.push({ role: "assistant", content: [{ type: "output_text", text }] });
        text = "";
      };
      for (const b of m.content) {
        if (b.type === "text") text += b.text;
        else if (b.type === "thinking") {
          const item = b.opaque?.type === "reasoning" ? reasoningItem(b.opaque.item) : null;
          if (item) {
            flush();
            out.push(item);
          }
        } else {
          flush();
          out.push({
            type: "function_call",
            call_id: b.id,
            name: b.name,
            arguments: JSON.stringify(b.args),
          });
        }
      }
      flush();
      // An answer cut after its reasoning (stopped, failed) has nothing the reasoning led
      // to: the API refuses a reasoning item without its following item.
      while (out.length > start && out[out.length - 1].type === "reasoning") out.pop();
    } else {
      out.push({ type: "function_call_output", call_id: m.toolCallId, output: m.content });
    }
  }
  return out;
}

/**
 * The request body. `encrypted`: ask for the reasoning back encrypted (the default; off
 * for a model that said it has no such thing).
 */
export function responsesBody(req: StreamRequest, encrypted = true): Json {
  const effort = openaiEffort(req.effort);
  return {
    model: req.model.id,
    instructions: req.system,
    input: toResponsesInput(req.messages, req),
    stream: true,
    // Nothing is kept on the server, so a reasoning model's thoughts come back encrypted
    // with the answer and are sent again with the next step's input.
    store: false,
    ...(encrypted ? { include: ["reasoning.encrypted_content"] } : {}),
    ...(req.cacheKey ? { prompt_cache_key: req.cacheKey } : {}),
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

/** Models (endpoint and id) that refused `include: ["reasoning.encrypted_content"]`. */
const NO_ENCRYPTED = new Set<string>();

/**
 * Non-reasoning models (gpt-4o, gpt-4.1 …) answer the request for encrypted reasoning with
 * a 400 ("Encrypted content is not supported with this model"); which models reason is
 * not known beforehand, so the refusal is the sign: asked again without, and remembered.
 */
function refusesEncrypted(e: unknown): boolean {
  if (!(e instanceof ProviderError) || e.info.status !== 400) return false;
  return /encrypted content|reasoning\.encrypted_content/i.test(
    `${e.info.message} ${e.info.upstream ?? ""}`,
  );
}

async function* openStream(
  url: string,
  req: StreamRequest,
  signal: AbortSignal,
): AsyncGenerator<{ data: string }> {
  const key = `${url} ${req.model.id}`;
  const headers = openaiHeaders(req.provider.apiKey);
  const encrypted = !NO_ENCRYPTED.has(key);
  let it = postSse(url, headers, responsesBody(req, encrypted), signal);
  let first: IteratorResult<{ data: string }>;
  try {
    first = await it.next();
  } catch (e) {
    if (!encrypted || !refusesEncrypted(e)) throw e;
    NO_ENCRYPTED.add(key);
    it = postSse(url, headers, responsesBody(req, false), signal);
    first = await it.next();
  }
  for (let r = first; !r.done; r = await it.next()) yield r.value;
}

export const openaiResponses: Adapter = {
  async *stream(req: StreamRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    const url = `${v1(req.provider.baseUrl)}/responses`;
    const calls = new Map<string, PendingCall>(); // by item id
    let status = "";
    let incomplete = "";
    let refused = false;
    let ended = false;
    let n = 0;
    for await (const sse of openStream(url, req, signal)) {
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
        case "response.refusal.delta":
          // The model's own words of refusal: shown as its answer, the stop says why.
          refused = true;
          if (ev.delta) yield { type: "text", delta: ev.delta };
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
          if (ev.item?.type === "reasoning") {
            const { id, summary, encrypted_content } = ev.item;
            yield {
              type: "thinking_opaque",
              data: { type: "reasoning", item: { id, summary, encrypted_content } },
            };
          } else if (ev.item?.type === "function_call") {
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
          incomplete = ev.response?.incomplete_details?.reason ?? "";
          if (ev.response?.usage) {
            yield { type: "usage", usage: usageFromOpenAI(ev.response.usage) };
          }
          break;
        case "error":
          // `{type: "error", error: {type, code, message}}` as the API sends it, or flat.
          throw streamError(ev.error ?? ev, url, sse.data);
        case "response.failed": {
          const err = ev.response?.error;
          if (err?.message) throw streamError(err, url, sse.data);
          const msg = "response failed";
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
    let reason: StopReason = "other";
    if (n > 0) reason = "tool_use";
    else if (refused) reason = "refusal";
    else if (status === "incomplete") {
      reason = incomplete === "content_filter" ? "content_filter" : "max_tokens";
    } else if (status === "completed") reason = "end";
    yield { type: "stop", reason };
  },
};
