/**
 * Money for model use: a model's price and the cost of the tokens a reply used.
 *
 * Money is kept in integers so sums never drift: a price is in micro-units of its
 * currency per million tokens ($3 / 1M tokens = 3_000_000), a cost in nano-units
 * ($0.0123 = 12_300_000). `tokens × price` is exact in pico-units; a reply's cost is
 * that sum rounded once to the nearest nano-unit (a billionth of a dollar), far below
 * what any bill shows.
 *
 * An unknown price is `null` and never counts as 0: a reply that used tokens of a kind
 * whose price is unknown has no cost, only the list of what is missing.
 *
 * @example
 * const r = costOf({ input: 1000, output: 500, cacheRead: 0, cacheWrite: 0 }, price);
 * if (r.known) formatMoney(r.cost.total, r.cost.currency, "en-US"); // "$0.0105"
 */
import { int, nullable, obj, oneOf, str } from "./schema.ts";

/** The token kinds a provider reports and a price may name. */
export const PRICE_FIELDS = ["input", "output", "cacheRead", "cacheWrite"] as const;
export type PriceField = typeof PRICE_FIELDS[number];

export const PRICE_SOURCES = ["fetched", "manual", "builtin"] as const;
export type PriceSource = typeof PRICE_SOURCES[number];

/** ISO 4217 code, e.g. `USD`. */
export const CURRENCY_RE = /^[A-Z]{3}$/;

/** Highest price accepted: 1 000 000 currency units per million tokens. */
export const MAX_PRICE_MICROS = 1_000_000_000_000;

/** What a model costs per million tokens, in micro-units of `currency`; null = unknown. */
export interface ModelPrice {
  currency: string;
  input: number | null;
  output: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
  /** Read from the provider's model list, typed by the user, or from the built-in list. */
  source: PriceSource;
}

/** Token counts of one reply (`input` excludes cached tokens, as every adapter reports). */
export interface TokenUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** What a reply cost, in nano-units of `currency`, per token kind and in total. */
export interface Cost {
  currency: string;
  total: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export type CostResult =
  | { known: true; cost: Cost }
  /** `missing`: the token kinds used whose price is unknown (all four when no price). */
  | { known: false; missing: PriceField[] };

/** An amount of money in one currency (nano-units). */
export interface MoneySum {
  currency: string;
  nanos: number;
}

const priceMicros = nullable(int({ min: 0, max: MAX_PRICE_MICROS }));

/** A price as a client sends it; `source` is set by the server ("manual"). */
export const priceSchema = obj({
  currency: str({ min: 3, max: 3, pattern: CURRENCY_RE }),
  input: priceMicros,
  output: priceMicros,
  cacheRead: priceMicros,
  cacheWrite: priceMicros,
  "source?": oneOf(PRICE_SOURCES),
});

/**
 * The cost of `usage` at `price`. Token kinds with no tokens need no price; a kind with
 * tokens and an unknown price makes the whole cost unknown.
 */
export function costOf(usage: TokenUsage, price: ModelPrice | null | undefined): CostResult {
  if (!price) {
    return { known: false, missing: PRICE_FIELDS.filter((f) => tokensOf(usage, f) > 0) };
  }
  // A rate that is not a whole number of micro-units (e.g. from a hand-edited backup)
  // is as good as unknown.
  const rate = (f: PriceField): number | null => {
    const v = price[f];
    return Number.isSafeInteger(v) && (v as number) >= 0 ? v as number : null;
  };
  const missing = PRICE_FIELDS.filter((f) => tokensOf(usage, f) > 0 && rate(f) === null);
  if (missing.length) return { known: false, missing };
  // Pico-units in BigInt: tokens × micro-units per million can pass 2^53.
  const part = (f: PriceField) => BigInt(tokensOf(usage, f)) * BigInt(rate(f) ?? 0);
  const picos = { input: 0n, output: 0n, cacheRead: 0n, cacheWrite: 0n };
  for (const f of PRICE_FIELDS) picos[f] = part(f);
  const sum = picos.input + picos.output + picos.cacheRead + picos.cacheWrite;
  return {
    known: true,
    cost: {
      currency: price.currency,
      total: picoToNano(sum),
      input: picoToNano(picos.input),
      output: picoToNano(picos.output),
      cacheRead: picoToNano(picos.cacheRead),
      cacheWrite: picoToNano(picos.cacheWrite),
    },
  };
}

function tokensOf(u: TokenUsage, f: PriceField): number {
  const n = u[f];
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
}

/** Rounds half up to whole nano-units. */
const picoToNano = (p: bigint): number => Number((p + 500n) / 1000n);

/** Adds `add` into `sums` (one entry per currency, in first-seen order). */
export function addMoney(sums: MoneySum[], add: MoneySum): MoneySum[] {
  const hit = sums.find((s) => s.currency === add.currency);
  if (hit) hit.nanos += add.nanos;
  else sums.push({ ...add });
  return sums;
}

/**
 * Parses a price per million tokens typed as a decimal ("3", "0.0375", "1,25" is
 * refused) into micro-units, exactly (no floating point). "" = unknown (null); anything
 * else that is not a non-negative decimal with at most 6 decimals is `NaN`.
 */
export function parsePriceMicros(text: string): number | null {
  const s = text.trim().replace(/^\$/, "");
  if (s === "") return null;
  const m = /^(\d{1,7})(?:\.(\d{0,6}))?$/.exec(s) ?? /^()\.(\d{1,6})$/.exec(s);
  if (!m) return NaN;
  const micros = Number(m[1] || "0") * 1_000_000 + Number((m[2] ?? "").padEnd(6, "0"));
  return micros <= MAX_PRICE_MICROS ? micros : NaN;
}

/** Micro-units per million tokens as the plain decimal a user typed: 37_500 → "0.0375". */
export function priceText(micros: number | null): string {
  if (micros === null) return "";
  const whole = Math.floor(micros / 1_000_000);
  const frac = String(micros % 1_000_000).padStart(6, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : String(whole);
}

/**
 * A cost for people, always with its currency: at least 2 decimals, more for small
 * amounts so a cheap reply never reads as 0 ($0.000042). Exact digits from the integer.
 */
export function formatMoney(nanos: number, currency: string, locale: string): string {
  const neg = nanos < 0;
  const n = Math.abs(Math.round(nanos));
  const whole = Math.floor(n / 1e9);
  const frac = String(n % 1e9).padStart(9, "0");
  // Two decimals from a cent up, else enough decimals for two significant digits.
  let digits = 2;
  if (n === 0) digits = 2;
  else if (whole === 0 && n < 10_000_000) {
    const firstNonZero = frac.search(/[1-9]/);
    digits = Math.min(9, firstNonZero + 2);
  } else if (whole < 1) digits = 4;
  const shown = roundDecimal(whole, frac, digits);
  let fmt: Intl.NumberFormat;
  try {
    fmt = new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
  } catch {
    return `${neg ? "-" : ""}${shown} ${currency}`;
  }
  // The decimal string goes through formatToParts of 0 to get the locale's symbol layout.
  const parts = fmt.formatToParts(0);
  const [w, f = ""] = shown.split(".");
  return (neg ? "-" : "") +
    parts.map((p) =>
      p.type === "integer" ? groupThousands(w, locale) : p.type === "fraction" ? f : p.value
    ).join("");
}

function roundDecimal(whole: number, frac9: string, digits: number): string {
  const scaled = BigInt(whole) * 10n ** BigInt(digits) +
    BigInt(frac9.slice(0, digits) || "0") + (Number(frac9[digits] ?? "0") >= 5 ? 1n : 0n);
  const s = scaled.toString().padStart(digits + 1, "0");
  return `${s.slice(0, -digits)}.${s.slice(-digits)}`;
}

function groupThousands(w: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { useGrouping: true }).format(BigInt(w));
  } catch {
    return w;
  }
}
