/**
 * The quirks of OpenAI-compatible vendors that speak chat completions with a twist:
 * where the request goes, how the key travels, extra headers and body fields. The
 * wire adapter stays one; it asks this module for the URL, headers and final body.
 *
 * - Azure OpenAI: `{base}/openai/deployments/{deployment}/chat/completions?api-version=…`
 *   with the key in an `api-key` header; the model id is the deployment name.
 * - OpenRouter: `HTTP-Referer` / `X-Title` name the app; reasoning effort goes in
 *   `reasoning: {effort}` (its unified field) rather than `reasoning_effort`.
 * - Groq: OpenAI-compatible under `/openai/v1`; usage may arrive under `x_groq.usage`.
 * - LM Studio, Ollama: local, no key; nothing else differs.
 *
 * A provider's dialect follows the preset it was made from, else its host, so a custom
 * provider pointed at openrouter.ai or an Azure resource gets the same treatment.
 */
import type { ProviderConfig } from "./types.ts";
import { v1 } from "./urls.ts";
import { AZURE_DEFAULT_API_VERSION } from "../../protocol/presets.ts";

export type Dialect = "azure" | "openrouter" | "groq" | "openai" | "plain";

/** What `X-Title` tells OpenRouter; `HTTP-Referer` is the app's site (options.appUrl). */
export const APP_TITLE = "ReinAgent";
/** The app runs on the user's own machine: its "site" is local unless the user sets one. */
export const DEFAULT_APP_URL = "http://localhost";

const AZURE_HOST = /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/;

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).hostname;
  } catch {
    return "";
  }
}

export function dialectOf(p: Pick<ProviderConfig, "preset" | "baseUrl">): Dialect {
  const host = hostOf(p.baseUrl);
  if (p.preset === "azure" || AZURE_HOST.test(host)) return "azure";
  if (p.preset === "openrouter" || host === "openrouter.ai") return "openrouter";
  if (p.preset === "groq" || host === "api.groq.com") return "groq";
  if (/(^|\.)openai\.com$/.test(host)) return "openai";
  return "plain";
}

/** Azure's api-version: the provider's, else the default. */
export function apiVersionOf(p: ProviderConfig): string {
  return p.options?.apiVersion?.trim() || AZURE_DEFAULT_API_VERSION;
}

/** POST target of a chat completion for `modelId`. */
export function chatCompletionsUrl(p: ProviderConfig, modelId: string): string {
  if (dialectOf(p) === "azure") {
    const base = p.baseUrl.replace(/\/+$/, "").replace(/\/openai$/, "");
    return `${base}/openai/deployments/${encodeURIComponent(modelId)}/chat/completions` +
      `?api-version=${encodeURIComponent(apiVersionOf(p))}`;
  }
  return `${v1(p.baseUrl)}/chat/completions`;
}

/** Headers of an OpenAI-compatible request: the key as each vendor wants it, app headers. */
export function compatHeaders(p: ProviderConfig): Record<string, string> {
  const d = dialectOf(p);
  if (d === "azure") return p.apiKey ? { "api-key": p.apiKey } : {};
  const auth: Record<string, string> = p.apiKey ? { authorization: `Bearer ${p.apiKey}` } : {};
  if (d === "openrouter") {
    return {
      ...auth,
      "HTTP-Referer": p.options?.appUrl?.trim() || DEFAULT_APP_URL,
      "X-Title": APP_TITLE,
    };
  }
  return auth;
}

/** The field that caps the answer's tokens: OpenAI's own API and Azure reject `max_tokens` on reasoning models. */
export function maxTokensField(p: ProviderConfig): "max_tokens" | "max_completion_tokens" {
  const d = dialectOf(p);
  return d === "openai" || d === "azure" ? "max_completion_tokens" : "max_tokens";
}

// deno-lint-ignore no-explicit-any
type Json = any;

/** The body as the vendor takes it (OpenRouter's unified reasoning field). */
export function shapeChatBody(p: ProviderConfig, body: Json): Json {
  if (dialectOf(p) === "openrouter" && body.reasoning_effort !== undefined) {
    const { reasoning_effort, ...rest } = body;
    return { ...rest, reasoning: { effort: reasoning_effort } };
  }
  return body;
}

/** The usage object of a chunk: the standard field, or Groq's `x_groq.usage`. */
export function chunkUsage(chunk: Json): Json {
  return chunk?.usage ?? chunk?.x_groq?.usage ?? null;
}
