/**
 * Provider presets (SPEC §2.1): a name, the real wire format and the documented
 * endpoint of each well-known vendor. Presets start with no models: the user fetches
 * them (`models.fetch`) or adds them by hand. Pure data, shared with the protocol.
 */
import type { ApiFormat } from "./provider_types.ts";

export interface ProviderPreset {
  id: string;
  name: string;
  format: Exclude<ApiFormat, "demo">;
  baseUrl: string;
  /** Where a user gets an API key; null when the provider needs none. */
  keyUrl: string | null;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    id: "deepseek",
    name: "DeepSeek",
    format: "openai-chat-completions",
    baseUrl: "https://api.deepseek.com",
    keyUrl: "https://platform.deepseek.com/api_keys",
  },
  {
    id: "openai",
    name: "OpenAI",
    format: "openai-responses",
    baseUrl: "https://api.openai.com",
    keyUrl: "https://platform.openai.com/api-keys",
  },
  {
    id: "anthropic",
    name: "Anthropic",
    format: "anthropic-messages",
    baseUrl: "https://api.anthropic.com",
    keyUrl: "https://console.anthropic.com/settings/keys",
  },
  {
    id: "gemini",
    name: "Gemini",
    format: "google-generative-ai",
    baseUrl: "https://generativelanguage.googleapis.com",
    keyUrl: "https://aistudio.google.com/apikey",
  },
  {
    id: "ollama",
    name: "Ollama",
    format: "openai-chat-completions",
    baseUrl: "http://127.0.0.1:11434",
    keyUrl: null,
  },
];

export const PRESET_IDS: readonly string[] = PROVIDER_PRESETS.map((p) => p.id);
