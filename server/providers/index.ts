/** Picks the adapter for a wire format. SDK-backed adapters load lazily (fast start). */
import type { Adapter, ApiFormat, StreamRequest } from "./types.ts";

export async function adapterFor(format: ApiFormat): Promise<Adapter> {
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
