/**
 * Where a model's price comes from when the user typed none: the provider's own model
 * list (OpenRouter's `/models` states prices per token), else a short built-in list of
 * the list prices of the preset vendors' well-known models. Prices are in micro-units
 * per million tokens (see protocol/pricing.ts); what a source does not state stays
 * `null`, so a model with no known price shows "price unknown", never 0.
 */
import type { ModelPrice } from "../../protocol/pricing.ts";
import { MAX_PRICE_MICROS } from "../../protocol/pricing.ts";
import { PROVIDER_PRESETS } from "../../protocol/presets.ts";

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A decimal amount (string or number, `3e-7` included) times 10^`shift`, as an exact
 * integer; null when it is not a non-negative number, is negative (OpenRouter's "-1"
 * means "varies") or has more precision than an integer at that scale.
 */
export function scaledDecimal(v: unknown, shift: number): number | null {
  const s = typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : v;
  if (typeof s !== "string") return null;
  const m = /^\s*(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(s);
  if (!m || (m[1] === "" && !m[2])) return null;
  const digits = (m[1] ?? "") + (m[2] ?? "");
  const point = (m[1] ?? "").length + shift + Number(m[3] ?? "0");
  if (point < 0) return /^0*$/.test(digits) ? 0 : null;
  const intPart = digits.slice(0, point).padEnd(point, "0");
  const rest = digits.slice(point);
  if (/[1-9]/.test(rest)) return null; // finer than one micro-unit per million tokens
  const n = Number(intPart || "0");
  return Number.isSafeInteger(n) && n <= MAX_PRICE_MICROS ? n : null;
}

/** $ per token (OpenRouter) → micro-$ per million tokens. */
const perToken = (v: unknown) => scaledDecimal(v, 12);
/** $ per million tokens → micro-$ per million tokens. */
const perMillion = (v: unknown) => scaledDecimal(v, 6);

/**
 * The price a listed model states, or null. OpenRouter: `pricing.prompt`,
 * `pricing.completion`, `pricing.input_cache_read`, `pricing.input_cache_write` in
 * dollars per token. Lists that state dollars per million tokens
 * (`pricing.input`/`output`/`cached_input`, e.g. Together) are read too.
 */
export function priceFromListing(m: Json): ModelPrice | null {
  const p = m.pricing;
  if (!isObj(p)) return null;
  let price: ModelPrice;
  if ("prompt" in p || "completion" in p) {
    price = {
      currency: "USD",
      input: perToken(p.prompt),
      output: perToken(p.completion),
      cacheRead: perToken(p.input_cache_read),
      cacheWrite: perToken(p.input_cache_write),
      source: "fetched",
    };
  } else if ("input" in p || "output" in p) {
    price = {
      currency: "USD",
      input: perMillion(p.input),
      output: perMillion(p.output),
      cacheRead: perMillion(p.cached_input ?? p.cache_read),
      cacheWrite: perMillion(p.cache_write),
      source: "fetched",
    };
  } else return null;
  return price.input === null && price.output === null ? null : price;
}

/** $ per million tokens: input, output, cache read, cache write (null = not billed apart). */
type Row = [number, number, number | null, number | null];

/** List prices in USD per million tokens, as the vendors published them in late 2025. */
const BUILTIN: Record<string, Record<string, Row>> = {
  "api.deepseek.com": {
    "deepseek-chat": [0.28, 0.42, 0.028, null],
    "deepseek-reasoner": [0.28, 0.42, 0.028, null],
  },
  "api.openai.com": {
    "gpt-5": [1.25, 10, 0.125, null],
    "gpt-5-mini": [0.25, 2, 0.025, null],
    "gpt-5-nano": [0.05, 0.4, 0.005, null],
    "gpt-4.1": [2, 8, 0.5, null],
    "gpt-4.1-mini": [0.4, 1.6, 0.1, null],
    "gpt-4.1-nano": [0.1, 0.4, 0.025, null],
    "gpt-4o": [2.5, 10, 1.25, null],
    "gpt-4o-mini": [0.15, 0.6, 0.075, null],
    "o3": [2, 8, 0.5, null],
    "o4-mini": [1.1, 4.4, 0.275, null],
  },
  "api.anthropic.com": {
    "claude-opus-4-5": [5, 25, 0.5, 6.25],
    "claude-opus-4-1": [15, 75, 1.5, 18.75],
    "claude-opus-4-0": [15, 75, 1.5, 18.75],
    "claude-sonnet-4-5": [3, 15, 0.3, 3.75],
    "claude-sonnet-4-0": [3, 15, 0.3, 3.75],
    "claude-3-7-sonnet-latest": [3, 15, 0.3, 3.75],
    "claude-haiku-4-5": [1, 5, 0.1, 1.25],
    "claude-3-5-haiku-latest": [0.8, 4, 0.08, 1],
  },
  "generativelanguage.googleapis.com": {
    "gemini-2.5-pro": [1.25, 10, 0.125, null],
    "gemini-2.5-flash": [0.3, 2.5, 0.03, null],
    "gemini-2.5-flash-lite": [0.1, 0.4, 0.01, null],
  },
  "api.groq.com": {
    "llama-3.3-70b-versatile": [0.59, 0.79, null, null],
    "llama-3.1-8b-instant": [0.05, 0.08, null, null],
  },
};

/** Dated snapshots share their alias's price: `claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`. */
const ALIASES: Record<string, string> = {
  "claude-opus-4-5-20251101": "claude-opus-4-5",
  "claude-opus-4-1-20250805": "claude-opus-4-1",
  "claude-opus-4-20250514": "claude-opus-4-0",
  "claude-sonnet-4-5-20250929": "claude-sonnet-4-5",
  "claude-sonnet-4-20250514": "claude-sonnet-4-0",
  "claude-3-7-sonnet-20250219": "claude-3-7-sonnet-latest",
  "claude-haiku-4-5-20251001": "claude-haiku-4-5",
  "claude-3-5-haiku-20241022": "claude-3-5-haiku-latest",
  "gpt-5-2025-08-07": "gpt-5",
  "gpt-5-mini-2025-08-07": "gpt-5-mini",
  "gpt-5-nano-2025-08-07": "gpt-5-nano",
  "gpt-4.1-2025-04-14": "gpt-4.1",
  "gpt-4.1-mini-2025-04-14": "gpt-4.1-mini",
  "gpt-4.1-nano-2025-04-14": "gpt-4.1-nano",
  "gpt-4o-2024-08-06": "gpt-4o",
  "gpt-4o-mini-2024-07-18": "gpt-4o-mini",
  "o3-2025-04-16": "o3",
  "o4-mini-2025-04-16": "o4-mini",
};

const micros = (usd: number | null) => (usd === null ? null : Math.round(usd * 1_000_000));

/**
 * The built-in list price of `modelId` at the provider's vendor — the preset it was made
 * from, else the host it talks to — or null when the list does not know it.
 */
export function builtinPrice(
  p: { preset?: string | null; baseUrl: string },
  modelId: string,
): ModelPrice | null {
  const vendorUrl = PROVIDER_PRESETS.find((x) => x.id === p.preset)?.baseUrl || p.baseUrl;
  let host: string;
  try {
    host = new URL(vendorUrl).hostname;
  } catch {
    return null;
  }
  const table = BUILTIN[host];
  const row = table?.[modelId] ?? table?.[ALIASES[modelId] ?? ""];
  if (!row) return null;
  return {
    currency: "USD",
    input: micros(row[0]),
    output: micros(row[1]),
    cacheRead: micros(row[2]),
    cacheWrite: micros(row[3]),
    source: "builtin",
  };
}
