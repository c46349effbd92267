/**
 * Money for model use: the cost of a reply at a model's price (exact integers, unknown
 * price never 0), typed prices, the money text, prices read from a provider's model
 * list (OpenRouter's per-token strings) and the built-in list of the preset vendors.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import {
  addMoney,
  costOf,
  formatMoney,
  type ModelPrice,
  parsePriceMicros,
  priceText,
} from "../protocol/pricing.ts";
import { builtinPrice, priceFromListing, scaledDecimal } from "../server/providers/prices.ts";

const SONNET: ModelPrice = {
  currency: "USD",
  input: 3_000_000,
  output: 15_000_000,
  cacheRead: 300_000,
  cacheWrite: 3_750_000,
  source: "manual",
};

Deno.test("costOf: each token kind at its own rate, exact nano-dollars", () => {
  const r = costOf({ input: 1000, output: 500, cacheRead: 20_000, cacheWrite: 4000 }, SONNET);
  assert(r.known);
  // 1000 × $3/M = $0.003; 500 × $15/M = $0.0075; 20 000 × $0.30/M = $0.006; 4000 × $3.75/M = $0.015
  assertEquals(r.cost, {
    currency: "USD",
    input: 3_000_000,
    output: 7_500_000,
    cacheRead: 6_000_000,
    cacheWrite: 15_000_000,
    total: 31_500_000,
  });
});

Deno.test("costOf: sub-nano amounts round once, on the total", () => {
  const cheap: ModelPrice = { ...SONNET, input: 37_500, output: 1, cacheRead: 0, cacheWrite: 0 };
  // 7 × 37 500 pico = 262.5 nano → 263; 3 × 1 pico → 0
  const r = costOf({ input: 7, output: 3, cacheRead: 0, cacheWrite: 0 }, cheap);
  assert(r.known);
  assertEquals(r.cost.total, 263);
  assertEquals(r.cost.output, 0);
  // Huge counts stay exact past 2^53 pico-units.
  const big = costOf({ input: 2e9, output: 0, cacheRead: 0, cacheWrite: 0 }, {
    ...SONNET,
    input: 75_000_000,
  });
  assert(big.known);
  assertEquals(big.cost.total, 150_000_000_000_000); // $150 000
});

Deno.test("costOf: an unknown price is unknown, never 0", () => {
  const u = { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 };
  assertEquals(costOf(u, null), { known: false, missing: ["input", "output"] });
  assertEquals(costOf(u, undefined), { known: false, missing: ["input", "output"] });
  const noCache: ModelPrice = { ...SONNET, cacheRead: null, cacheWrite: null };
  // No cached tokens: the cache rates are not needed.
  assert(costOf(u, noCache).known);
  // Cached tokens with no cache-read rate: the cost is unknown, not priced as input.
  assertEquals(costOf({ ...u, cacheRead: 5 }, noCache), { known: false, missing: ["cacheRead"] });
  // A malformed rate (not whole micro-units) is unknown, not a crash.
  const odd = { ...SONNET, input: 1.5 } as ModelPrice;
  assertEquals(costOf(u, odd), { known: false, missing: ["input"] });
  // A price of 0 (a free model) is a real price.
  const free: ModelPrice = { ...SONNET, input: 0, output: 0 };
  const r = costOf(u, free);
  assert(r.known);
  assertEquals(r.cost.total, 0);
});

Deno.test("typed prices: decimal text to micro-units exactly, and back", () => {
  assertEquals(parsePriceMicros("3"), 3_000_000);
  assertEquals(parsePriceMicros(" 0.0375 "), 37_500);
  assertEquals(parsePriceMicros("$15.00"), 15_000_000);
  assertEquals(parsePriceMicros(".5"), 500_000);
  assertEquals(parsePriceMicros("0.1"), 100_000); // no 0.1 float drift
  assertEquals(parsePriceMicros(""), null);
  for (const bad of ["-1", "abc", "1,25", "0.0000001", "1e-6", "99999999"]) {
    assert(Number.isNaN(parsePriceMicros(bad)), bad);
  }
  assertEquals(priceText(37_500), "0.0375");
  assertEquals(priceText(15_000_000), "15");
  assertEquals(priceText(0), "0");
  assertEquals(priceText(null), "");
});

Deno.test("formatMoney: always the currency; small amounts keep two significant digits", () => {
  assertEquals(formatMoney(31_500_000, "USD", "en-US"), "$0.0315");
  assertEquals(formatMoney(1_234_567_890_000, "USD", "en-US"), "$1,234.57");
  assertEquals(formatMoney(42_000, "USD", "en-US"), "$0.000042");
  assertEquals(formatMoney(0, "USD", "en-US"), "$0.00");
  assertEquals(formatMoney(2_500_000_000, "CNY", "zh-CN"), "¥2.50");
  assertEquals(formatMoney(5_000_000_000, "XYZ", "en-US").replace(/\s/g, " "), "XYZ 5.00");
  const sums = addMoney([], { currency: "USD", nanos: 5 });
  addMoney(sums, { currency: "CNY", nanos: 1 });
  addMoney(sums, { currency: "USD", nanos: 7 });
  assertEquals(sums, [{ currency: "USD", nanos: 12 }, { currency: "CNY", nanos: 1 }]);
});

Deno.test("prices from a model list: OpenRouter's per-token strings, per-million lists", () => {
  assertEquals(scaledDecimal("0.000003", 12), 3_000_000);
  assertEquals(scaledDecimal("0.0000000375", 12), 37_500);
  assertEquals(scaledDecimal("3e-7", 12), 300_000);
  assertEquals(scaledDecimal(0.88, 6), 880_000);
  assertEquals(scaledDecimal("-1", 12), null); // "varies" (openrouter/auto)
  assertEquals(scaledDecimal("abc", 12), null);
  assertEquals(
    priceFromListing({
      id: "anthropic/claude-sonnet-4.5",
      pricing: {
        prompt: "0.000003",
        completion: "0.000015",
        input_cache_read: "0.0000003",
        input_cache_write: "0.00000375",
        request: "0",
      },
    }),
    { ...SONNET, source: "fetched" },
  );
  // No cache prices stated: unknown, not 0.
  assertEquals(priceFromListing({ pricing: { prompt: "0", completion: "0" } }), {
    currency: "USD",
    input: 0,
    output: 0,
    cacheRead: null,
    cacheWrite: null,
    source: "fetched",
  });
  assertEquals(priceFromListing({ pricing: { input: 0.88, output: 0.88 } })?.output, 880_000);
  assertEquals(priceFromListing({ pricing: { prompt: "-1", completion: "-1" } }), null);
  assertEquals(priceFromListing({ id: "x" }), null);
});

Deno.test("built-in list prices: preset vendors' models by host, dated snapshots included", () => {
  const sonnet = builtinPrice(
    { baseUrl: "https://api.anthropic.com" },
    "claude-sonnet-4-5-20250929",
  );
  assertEquals(sonnet, { ...SONNET, source: "builtin" });
  assertEquals(
    builtinPrice({ baseUrl: "https://api.deepseek.com" }, "deepseek-chat")?.cacheRead,
    28_000,
  );
  assertEquals(builtinPrice({ baseUrl: "https://api.openai.com" }, "gpt-4.1-mini")?.input, 400_000);
  // Another host (a proxy, OpenRouter) or an unknown model: no guess.
  assertEquals(builtinPrice({ baseUrl: "https://openrouter.ai/api" }, "gpt-4.1-mini"), null);
  assertEquals(builtinPrice({ baseUrl: "https://api.openai.com" }, "gpt-4o-2024-05-13"), null);
  assertEquals(builtinPrice({ baseUrl: "not a url" }, "gpt-4o"), null);
  // A provider made from a preset is priced as its vendor wherever it points (a proxy).
  assertEquals(
    builtinPrice({ preset: "anthropic", baseUrl: "http://127.0.0.1:9" }, "claude-haiku-4-5")
      ?.output,
    5_000_000,
  );
});
