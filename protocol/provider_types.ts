/**
 * The pure provider shapes shared by the server, the store and the UI: wire formats,
 * what we know about a model, a provider's configuration, a tool's spec for the model,
 * and a provider error as stored and shown. Adapters and the stream types stay in
 * `agent/providers/types.ts`.
 */
import type { Effort } from "./constants.ts";
import type { ModelPrice } from "./pricing.ts";
export { EFFORT_LEVELS } from "./constants.ts";
export type { Effort } from "./constants.ts";

export const API_FORMATS = [
  "openai-chat-completions",
  "openai-responses",
  "anthropic-messages",
  "google-generative-ai",
] as const;
export type ApiFormat = typeof API_FORMATS[number] | "demo";

/** What we know about a model. `null` = unknown (never guessed). */
export interface ModelInfo {
  id: string;
  name: string;
  enabled: boolean;
  contextWindow: number | null;
  maxOutput: number | null;
  vision: boolean | null;
  /** Levels the model declares; null = undeclared. */
  effortLevels: Effort[] | null;
  defaultEffort: Effort | null;
  source: "fetched" | "manual" | "builtin";
  /** Price per million tokens; null = unknown (never counted as free). */
  price: ModelPrice | null;
}

/** What a provider needs beyond a base URL and a key. */
export interface ProviderOptions {
  /** Azure OpenAI: the `api-version` query parameter of every request. */
  apiVersion?: string;
  /** OpenRouter: the site sent as `HTTP-Referer` (the app's attribution). */
  appUrl?: string;
}

export interface ProviderConfig {
  id: string;
  name: string;
  format: ApiFormat;
  /** The preset it was made from (its request quirks follow it); absent = custom. */
  preset?: string | null;
  options?: ProviderOptions;
  /** Stored without trailing slashes or `/v1`. */
  baseUrl: string;
  apiKey: string;
  enabled: boolean;
  models: ModelInfo[];
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export type ErrorCategory =
  | "auth"
  | "balance"
  | "rate-limit"
  | "server"
  | "network"
  | "timeout"
  | "request"
  | "aborted"
  | "unknown";

export interface ProviderErrorInfo {
  category: ErrorCategory;
  message: string;
  status: number | null;
  url: string | null;
  /** The upstream error body/message, verbatim (trimmed). */
  upstream: string | null;
  hint: string;
  /** Causes, outermost first. */
  chain: string[];
}
