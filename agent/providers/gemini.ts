/** `google-generative-ai` (streamGenerateContent?alt=sse): fetch + the shared SSE parser. */
import {
  type Adapter,
  forTarget,
  type LlmMessage,
  type StopReason,
  type StreamEvent,
  type StreamRequest,
  type Usage,
} from "./types.ts";
import { geminiThinking } from "./effort.ts";
import { postSse, sseJson } from "./http_stream.ts";
import { ProviderError, truncatedError } from "./errors.ts";
import { normaliseBaseUrl } from "./urls.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** Gemini accepts an OpenAPI subset of JSON Schema: drop the keywords it rejects. */
export function geminiSchema(s: Json): Json {
  if (Array.isArray(s)) return s.map(geminiSchema);
  if (typeof s !== "object" || s === null) return s;
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "additionalProperties" || k === "$schema" || k === "$id") continue;
    out[k] = geminiSchema(v);
  }
  return out;
}

/**
 * Gemini 3 refuses a function call of the current turn that comes back without its
 * thought signature; calls another model made carry this documented placeholder instead.
 */
const NO_SIGNATURE = "skip_thought_signature_validator";

export function toGeminiContents(messages: LlmMessage[], target?: StreamRequest): Json[] {
  const strict = target ? /gemini-3/i.test(target.model.id) : false;
  const out: Json[] = [];
  const push = (role: "user" | "model", parts: Json[]) => {
    const last = out[out.length - 1];
    if (last?.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  };
  for (const original of messages) {
    const m = original.role === "assistant" && target ? forTarget(original, target) : original;
    if (m.role === "user") {
      push(
        "user",
        m.content.map((b) =>
          b.type === "text"
            ? { text: b.text }
            : { inlineData: { mimeType: b.mimeType, data: b.data } }
        ),
      );
    } else if (m.role === "assistant") {
      // Every part that had a thought signature gets it back (the API checks them).
      const parts: Json[] = [];
      for (const b of m.content) {
        if (b.type === "text") {
          if (b.text || b.signature) {
            parts.push({ text: b.text, ...(b.signature ? { thoughtSignature: b.signature } : {}) });
          }
        } else if (b.type === "thinking") {
          if (b.signature) {
            parts.push({ text: b.text, thought: true, thoughtSignature: b.signature });
          }
        } else {
          const sig = b.providerData?.thoughtSignature ?? (strict ? NO_SIGNATURE : undefined);
          parts.push({
            functionCall: { name: b.name, args: b.args },
            ...(sig ? { thoughtSignature: sig } : {}),
          });
        }
      }
      if (parts.length) push("model", parts);
    } else {
      push("user", [{
        functionResponse: {
          name: m.name,
          response: m.isError ? { error: m.content } : { content: m.content },
        },
      }]);
    }
  }
  return out;
}

export function geminiBody(req: StreamRequest): Json {
  const thinkingConfig = geminiThinking(req.effort);
  return {
    contents: toGeminiContents(req.messages, req),
    systemInstruction: { parts: [{ text: req.system }] },
    ...(req.tools.length
      ? {
        tools: [{
          functionDeclarations: req.tools.map((t) => ({
            name: t.name,
            description: t.description,
            parameters: geminiSchema(t.parameters),
          })),
        }],
      }
      : {}),
    generationConfig: {
      maxOutputTokens: req.maxTokens,
      ...(thinkingConfig ? { thinkingConfig } : {}),
    },
  };
}

/** Gemini's finish reasons: its several safety and policy blocks are all a content filter. */
const GEMINI_STOPS: Record<string, StopReason> = {
  STOP: "end",
  MAX_TOKENS: "max_tokens",
  SAFETY: "content_filter",
  RECITATION: "content_filter",
  BLOCKLIST: "content_filter",
  PROHIBITED_CONTENT: "content_filter",
  SPII: "content_filter",
  IMAGE_SAFETY: "content_filter",
  PROMPT_BLOCKED: "content_filter",
};

export const gemini: Adapter = {
  async *stream(req: StreamRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    const url = `${normaliseBaseUrl(req.provider.baseUrl)}/v1beta/models/${
      encodeURIComponent(req.model.id)
    }:streamGenerateContent?alt=sse`;
    let calls = 0;
    let finish = "";
    let usage: Usage | null = null;
    for await (
      const ev of postSse(url, { "x-goog-api-key": req.provider.apiKey }, geminiBody(req), signal)
    ) {
      const d: Json = sseJson(ev.data, url);
      if (d.error) {
        const status = typeof d.error.code === "number" ? d.error.code : null;
        throw new ProviderError({
          message: d.error.message ?? "stream error",
          status,
          url,
          upstream: ev.data.slice(0, 4000),
          chain: [String(d.error.message)],
        });
      }
      const cand = d.candidates?.[0];
      if (d.promptFeedback?.blockReason && !cand) finish = "PROMPT_BLOCKED";
      for (const p of cand?.content?.parts ?? []) {
        if (typeof p.text === "string" && p.text) {
          yield p.thought ? { type: "thinking", delta: p.text } : { type: "text", delta: p.text };
        }
        if (typeof p.text === "string" && typeof p.thoughtSignature === "string") {
          yield p.thought
            ? { type: "thinking_signature", signature: p.thoughtSignature }
            : { type: "text_signature", signature: p.thoughtSignature };
        }
        if (p.functionCall) {
          const index = calls++;
          const id = p.functionCall.id ?? `gemini_call_${index}`;
          const name = p.functionCall.name;
          yield { type: "tool_call_start", index, id, name };
          yield {
            type: "tool_call",
            index,
            id,
            name,
            args: p.functionCall.args ?? {},
            ...(p.thoughtSignature
              ? { providerData: { thoughtSignature: p.thoughtSignature } }
              : {}),
          };
        }
      }
      if (cand?.finishReason) finish = cand.finishReason;
      const u = d.usageMetadata;
      if (u) {
        const cached = u.cachedContentTokenCount ?? 0;
        // Cumulative: each chunk's numbers replace the previous ones.
        usage = {
          input: Math.max(0, (u.promptTokenCount ?? 0) - cached),
          output: (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0),
          cacheRead: cached,
          cacheWrite: 0,
          reasoning: u.thoughtsTokenCount ?? 0,
        };
      }
    }
    if (!finish) throw truncatedError(url, "finishReason");
    if (usage) yield { type: "usage", usage };
    yield { type: "stop", reason: calls ? "tool_use" : GEMINI_STOPS[finish] ?? "other" };
  },
};
