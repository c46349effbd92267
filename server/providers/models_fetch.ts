/**
 * Fetching a provider's model list and reading the real metadata in it:
 * context window, max output, vision and declared effort levels. What the provider
 * does not state stays `null` — nothing is guessed from a model's name.
 *
 * @example
 * const listed = await fetchModelList(provider);          // real HTTP, 20 s timeout
 * const { models, added } = mergeModels(provider.models, listed);
 */
import { netFetch } from "../../tools/net/proxy.ts";
import {
  type ApiFormat,
  type Effort,
  EFFORT_LEVELS,
  fromResponse,
  type ModelInfo,
  networkError,
  normaliseBaseUrl,
  ProviderError,
  v1,
} from "../../agent/index.ts";
import { priceFromListing } from "./prices.ts";

/** A model as the provider lists it (no user state yet). */
export type FetchedModel = Omit<ModelInfo, "enabled" | "source">;

type Json = Record<string, unknown>;

const MAX_PAGES = 20;
export const FETCH_TIMEOUT_MS = 20_000;

const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A positive integer token count, or null (numeric strings are accepted as written). */
function count(v: unknown): number | null {
  const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 ? n : null;
}

const firstCount = (...vs: unknown[]): number | null => {
  for (const v of vs) {
    const n = count(v);
    if (n !== null) return n;
  }
  return null;
};

const isEffort = (v: unknown): v is Effort =>
  typeof v === "string" && (EFFORT_LEVELS as readonly string[]).includes(v);

/** Vision from `supports_images`-style booleans or an input-modality list. */
export function visionOf(m: Json): boolean | null {
  for (const k of ["supports_images", "supports_image", "supports_vision"]) {
    if (typeof m[k] === "boolean") return m[k] as boolean;
  }
  const modalities = m.modalities;
  const arch = isObj(m.architecture) ? m.architecture : {};
  const lists = [
    m.input_modalities,
    modalities,
    isObj(modalities) ? modalities.input : undefined,
    arch.input_modalities,
  ];
  for (const l of lists) {
    if (Array.isArray(l)) return l.some((x) => x === "image");
  }
  return null;
}

/** Declared effort levels (only known ones, in canonical order) and default level. */
export function effortOf(m: Json): { levels: Effort[] | null; def: Effort | null } {
  const e = m.effort;
  if (!isObj(e)) return { levels: null, def: null };
  const declared = Array.isArray(e.supported_levels) ? e.supported_levels.filter(isEffort) : [];
  const levels = EFFORT_LEVELS.filter((l) => declared.includes(l));
  const def = isEffort(e.default_level) &&
      (levels.length === 0 || levels.includes(e.default_level))
    ? e.default_level
    : null;
  return { levels: levels.length ? levels : null, def };
}

/** Reads one listed model; null when it has no usable id. */
export function parseModel(format: ApiFormat, m: unknown): FetchedModel | null {
  if (!isObj(m)) return null;
  const raw = format === "google-generative-ai" ? m.name ?? m.id : m.id;
  if (typeof raw !== "string") return null;
  const id = format === "google-generative-ai" ? raw.replace(/^models\//, "") : raw;
  if (!id || /\s/.test(id) || id.length > 200) return null;
  const top = isObj(m.top_provider) ? m.top_provider : {};
  const named = [m.display_name, m.displayName, format === "google-generative-ai" ? null : m.name]
    .find((n) => typeof n === "string" && n.trim());
  const effort = effortOf(m);
  return {
    id,
    name: typeof named === "string" ? named.trim().slice(0, 200) : id,
    contextWindow: firstCount(
      m.context_window,
      m.context_length,
      m.inputTokenLimit,
      top.context_length,
    ),
    maxOutput: firstCount(
      m.max_output_tokens,
      m.max_tokens,
      m.max_completion_tokens,
      m.outputTokenLimit,
      top.max_completion_tokens,
    ),
    vision: visionOf(m),
    effortLevels: effort.levels,
    defaultEffort: effort.def,
    price: priceFromListing(m),
  };
}

/** Parses one page of a list response; `next` is the cursor of the following page. */
export function parseModelPage(
  format: ApiFormat,
  body: unknown,
): { models: FetchedModel[]; next: string | null } | null {
  if (!isObj(body)) return null;
  if (format === "google-generative-ai") {
    if (!Array.isArray(body.models)) return null;
    const usable = body.models.filter((m) =>
      !isObj(m) || !Array.isArray(m.supportedGenerationMethods) ||
      m.supportedGenerationMethods.some((x) => x === "generateContent")
    );
    const next = typeof body.nextPageToken === "string" && body.nextPageToken
      ? body.nextPageToken
      : null;
    return { models: usable.flatMap((m) => parseModel(format, m) ?? []), next };
  }
  if (!Array.isArray(body.data)) return null;
  const next = format === "anthropic-messages" && body.has_more === true &&
      typeof body.last_id === "string"
    ? body.last_id
    : null;
  return { models: body.data.flatMap((m) => parseModel(format, m) ?? []), next };
}

interface Target {
  format: ApiFormat;
  baseUrl: string;
  apiKey: string;
}

function pageUrl(p: Target, cursor: string | null): string {
  const q = (k: string) => (cursor ? `&${k}=${encodeURIComponent(cursor)}` : "");
  if (p.format === "google-generative-ai") {
    return `${normaliseBaseUrl(p.baseUrl)}/v1beta/models?pageSize=1000${q("pageToken")}`;
  }
  if (p.format === "anthropic-messages") {
    return `${v1(p.baseUrl)}/models?limit=1000${q("after_id")}`;
  }
  return `${v1(p.baseUrl)}/models`;
}

/** Auth headers of each format. Gemini gets the key as a header, never in the URL. */
export function authHeaders(p: Target): Record<string, string> {
  if (p.format === "anthropic-messages") {
    return { "x-api-key": p.apiKey, "anthropic-version": "2023-06-01" };
  }
  if (p.format === "google-generative-ai") return { "x-goog-api-key": p.apiKey };
  return p.apiKey ? { authorization: `Bearer ${p.apiKey}` } : {};
}

export function timeoutError(url: string | null, ms: number): ProviderError {
  return new ProviderError({
    category: "timeout",
    message: `no answer within ${Math.round(ms / 1000)} s`,
    url,
    chain: [`request to ${url ?? "the provider"} timed out after ${ms} ms`],
  }, true);
}

/**
 * Lists a provider's models with one GET per page (`/v1/models`, Anthropic's paged
 * `/v1/models`, or Gemini's `/v1beta/models`). Throws a `ProviderError` carrying the
 * real status, upstream text and URL.
 */
export async function fetchModelList(
  p: Target,
  opts: { timeoutMs?: number; fetchFn?: typeof fetch } = {},
): Promise<FetchedModel[]> {
  const ms = opts.timeoutMs ?? FETCH_TIMEOUT_MS;
  const doFetch = opts.fetchFn ?? netFetch;
  const signal = AbortSignal.timeout(ms);
  const seen = new Map<string, FetchedModel>();
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = pageUrl(p, cursor);
    let text: string;
    let res: Response;
    try {
      res = await doFetch(url, {
        headers: { accept: "application/json", ...authHeaders(p) },
        signal,
      });
      if (!res.ok) throw await fromResponse(res, url);
      text = await res.text();
    } catch (e) {
      if (e instanceof ProviderError) throw e;
      if (signal.aborted) throw timeoutError(url, ms);
      throw networkError(e, url);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (e) {
      throw badList(url, res.status, text, `the model list is not JSON (${(e as Error).message})`);
    }
    const parsed = parseModelPage(p.format, body);
    if (!parsed) {
      const field = p.format === "google-generative-ai" ? "models" : "data";
      throw badList(url, res.status, text, `the answer has no "${field}" array of models`);
    }
    for (const m of parsed.models) if (!seen.has(m.id)) seen.set(m.id, m);
    if (!parsed.next || parsed.next === cursor) break;
    cursor = parsed.next;
  }
  return [...seen.values()];
}

function badList(url: string, status: number, text: string, why: string): ProviderError {
  return new ProviderError({
    category: "server",
    message: why,
    status,
    url,
    upstream: text.trim().slice(0, 4000) || null,
    chain: [`GET ${url} answered ${status}`, why],
  });
}

/**
 * Merges a fetched list into a provider's models without losing user data:
 * new models are appended disabled; existing ones keep their name, switch, source and
 * any value already set, and only gain metadata that was unknown (effort levels and
 * prices follow what the provider declares, unless the user typed the price); models
 * the provider no longer lists are kept.
 */
export function mergeModels(
  existing: ModelInfo[],
  fetched: FetchedModel[],
): { models: ModelInfo[]; added: number } {
  const byId = new Map(fetched.map((f) => [f.id, f]));
  const models = existing.map((m): ModelInfo => {
    const f = byId.get(m.id);
    if (!f) return m;
    return {
      ...m,
      contextWindow: m.contextWindow ?? f.contextWindow,
      maxOutput: m.maxOutput ?? f.maxOutput,
      vision: m.vision ?? f.vision,
      effortLevels: f.effortLevels ?? m.effortLevels,
      defaultEffort: f.effortLevels ? f.defaultEffort : m.defaultEffort ?? f.defaultEffort,
      // A price the user typed stays; otherwise the provider's current price wins.
      price: m.price?.source === "manual" ? m.price : f.price ?? m.price ?? null,
    };
  });
  const known = new Set(existing.map((m) => m.id));
  let added = 0;
  for (const f of fetched) {
    if (known.has(f.id)) continue;
    known.add(f.id);
    models.push({ ...f, enabled: false, source: "fetched" });
    added++;
  }
  return { models, added };
}
