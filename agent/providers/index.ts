/** Picks the adapter for a wire format. SDK-backed adapters load lazily (fast start). */
import type { Adapter, ApiFormat, StreamRequest } from "./types.ts";
import { ProviderError, scrubbedError } from "./errors.ts";
import { maskKey } from "../../lib/mask_key.ts";

export async function adapterFor(format: ApiFormat): Promise<Adapter> {
  return keyMasked(await bareAdapterFor(format));
}

/**
 * The adapter with its errors cleaned of the provider's key: servers echo a wrong key
 * back ("Incorrect API key provided: sk-…"), and an error is shown on every device,
 * stored in the task's history and logged.
 */
function keyMasked(adapter: Adapter): Adapter {
  return {
    async *stream(req, signal) {
      try {
        yield* adapter.stream(req, signal);
      } catch (e) {
        const key = req.provider.apiKey;
        throw e instanceof ProviderError && key
          ? scrubbedError(e, [{ secret: key, masked: maskKey(key) }])
          : e;
      }
    },
  };
}

async function bareAdapterFor(format: ApiFormat): Promise<Adapter> {
  switch (format) {
    case "openai-chat-completions":
      return (await import("./openai_chat.ts")).openaiChat;
    case "openai-responses":
      return (await import("./openai_responses.ts")).openaiResponses;
    case "anthropic-messages":
      return (await import("./anthropic.ts")).anthropic;
    case "google-generative-ai":
      return (await import("./gemini.ts")).gemini;
    case "demo":
      return (await import("./demo.ts")).demo;
  }
}

/** The body an adapter sends for `req` (the demo has none: its request as it is). */
export async function wireBody(req: StreamRequest): Promise<unknown> {
  switch (req.provider.format) {
    case "openai-chat-completions":
      return (await import("./openai_chat.ts")).chatBody(req);
    case "openai-responses":
      return (await import("./openai_responses.ts")).responsesBody(req);
    case "anthropic-messages":
      return (await import("./anthropic.ts")).anthropicBody(req);
    case "google-generative-ai":
      return (await import("./gemini.ts")).geminiBody(req);
    case "demo":
      return { system: req.system, messages: req.messages, tools: req.tools };
  }
}
