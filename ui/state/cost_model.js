/**
 * Cost in money as the UI shows it (pure; no DOM, no signals): the cost recorded on
 * replies (`meta.cost`, nano-units; see protocol/pricing.ts) summed per currency, and
 * the text of an amount — always with its currency, "price unknown" when no reply
 * in the set has a price.
 *
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 * @typedef {import("../../protocol/index.ts").MoneySum} MoneySum
 * @typedef {{sums: MoneySum[], replies: number, unpriced: number}} CostTotal
 */
import { addMoney, formatMoney } from "../../protocol/index.ts";

/**
 * The summed cost of the finished assistant entries among `entries`.
 * @param {readonly Entry[]} entries
 * @returns {CostTotal}
 */
export function costOfEntries(entries) {
  /** @type {MoneySum[]} */
  const sums = [];
  let replies = 0;
  let unpriced = 0;
  for (const e of entries) {
    if (e.role !== "assistant" || e.status === "streaming") continue;
    replies++;
    const c = /** @type {{currency?: unknown, total?: unknown}|undefined} */ (e.meta?.cost);
    if (c && typeof c.currency === "string" && typeof c.total === "number") {
      addMoney(sums, { currency: c.currency, nanos: c.total });
    } else unpriced++;
  }
  return { sums, replies, unpriced };
}

/**
 * "$0.0123" or "$0.01 + ¥0.20"; null when there is nothing priced.
 * @param {readonly MoneySum[]} sums
 * @param {string} locale
 */
export function moneyLabel(sums, locale) {
  if (!sums.length) return null;
  return sums.map((s) => formatMoney(s.nanos, s.currency, locale)).join(" + ");
}
