/**
 * Provider presets: a name, the real wire format and the documented
 * endpoint of each well-known vendor. Presets start with no models: the user fetches
 * them (`models.fetch`) or adds them by hand. Pure data, shared with the protocol.
 */
import type { ApiFormat, ProviderOptions } from "./provider_types.ts";

export interface ProviderPreset {
  id: string;
  name: string;
  format: Exclude<ApiFormat, "demo">;
  /** "" when each user's endpoint differs (Azure: the resource's own URL). */
  baseUrl: string;
  /** What the base URL looks like when it has to be typed. */
  baseUrlExample?: string;
  /** Where a user gets an API key; null when the provider needs none. */
  keyUrl: string | null;
  /** Options a new provider of this preset starts with. */
  options?: ProviderOptions;
  /** False when the vendor cannot list its models for a key (Azure deployments). */
  listsModels?: boolean;
}

/** The Azure OpenAI `api-version` a new Azure provider starts with (the latest GA one). */
export const AZURE_DEFAULT_API_VERSION = "2024-10-21";

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
  {
    id: "openrouter",
    name: "OpenRouter",
    format: "openai-chat-completions",
    baseUrl: "https://openrouter.ai/api",
    keyUrl: "https://openrouter.ai/settings/keys",
  },
  {
    id: "lmstudio",
    name: "LM Studio",
    format: "openai-chat-completions",
    baseUrl: "http://127.0.0.1:1234",
    keyUrl: null,
  },
  {
    id: "groq",
    name: "Groq",
    format: "openai-chat-completions",
    baseUrl: "https://api.groq.com/openai",
    keyUrl: "https://console.groq.com/keys",
  },
  {
    id: "azure",
    name: "Azure OpenAI",
    format: "openai-chat-completions",
    baseUrl: "",
    baseUrlExample: "https://YOUR-RESOURCE.openai.azure.com",
    keyUrl:
      "https://portal.azure.com/#view/Microsoft_Azure_ProjectOxford/CognitiveServicesHub/~/OpenAI",
    options: { apiVersion: AZURE_DEFAULT_API_VERSION },
    listsModels: false,
  },
];

export const PRESET_IDS: readonly string[] = PROVIDER_PRESETS.map((p) => p.id);
