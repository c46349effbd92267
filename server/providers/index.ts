/** Picks the adapter for a wire format. SDK-backed adapters load lazily (fast start). */
import type { Adapter, ApiFormat } from "./types.ts";

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
