/**
 * Pure helpers for the composer's per-task options: which model,
 * effort level and approval mode apply (task choice, else system default, else the
 * built-in fallbacks), which effort levels a model offers, and the step budget.
 *
 * @typedef {import("../../protocol/index.ts").PublicProvider} PublicProvider
 * @typedef {import("../../protocol/index.ts").ModelRef} ModelRef
 * @typedef {import("../../protocol/index.ts").Effort} Effort
 * @typedef {import("../../protocol/index.ts").ApprovalMode} ApprovalMode
 * @typedef {PublicProvider["models"][number]} ModelInfo
 * @typedef {{model: ModelRef|null, effort: Effort|null, approval: ApprovalMode|null}} Options
 * @typedef {{defaultModel: ModelRef|null, defaultEffort: Effort, defaultApproval: ApprovalMode}}
 *   SysDefaults
 */

import {
  DEFAULT_APPROVAL,
  DEMO_PROVIDER_ID,
  effectiveEffort,
  offeredLevels,
  STEP_BUDGET,
  UNDECLARED_LEVELS,
} from "../../protocol/index.ts";

/** The server's rules, one source: levels a model offers, the level a turn uses. */
export { DEMO_PROVIDER_ID, effectiveEffort, offeredLevels, STEP_BUDGET, UNDECLARED_LEVELS };
export const DEMO_REF = Object.freeze({ providerId: DEMO_PROVIDER_ID, modelId: "demo" });

/**
 * Step budget of a turn; approval mode `full` has no cap.
 * @param {Effort} effort
 * @param {ApprovalMode} approval
 */
export function stepsFor(effort, approval) {
  return approval === "full" ? Infinity : STEP_BUDGET[effort] ?? STEP_BUDGET.default;
}

/**
 * Token counts as shown on badges: 128000 → "128K", 1000000 → "1M", 1500000 → "1.5M".
 * @param {number|null|undefined} n
 */
export function formatTokens(n) {
  if (typeof n !== "number" || !Number.isFinite(n) || n <= 0) return "";
  if (n >= 1_000_000) return `${trim(n / 1_000_000)}M`;
  if (n >= 1000) return `${trim(n / 1000)}K`;
  return String(n);
}

/** @param {number} x */
function trim(x) {
  return (Math.round(x * 10) / 10).toString();
}

/**
 * Enabled models of enabled providers, grouped by provider, Demo first.
 * @param {PublicProvider[]} providers
 */
export function usableGroups(providers) {
  return providers
    .filter((p) => p.enabled)
    .map((p) => ({ provider: p, models: p.models.filter((m) => m.enabled) }))
    .filter((g) => g.models.length > 0)
    .sort((a, b) =>
      Number(b.provider.id === DEMO_PROVIDER_ID) - Number(a.provider.id === DEMO_PROVIDER_ID)
    );
}

/**
 * Finds a model by reference among all providers (enabled or not).
 * @param {PublicProvider[]} providers
 * @param {ModelRef|null} ref
 * @returns {{provider: PublicProvider, model: ModelInfo, usable: boolean}|null}
 */
export function findModel(providers, ref) {
  if (!ref) return null;
  const provider = providers.find((p) => p.id === ref.providerId);
  const model = provider?.models.find((m) => m.id === ref.modelId);
  if (!provider || !model) return null;
  return { provider, model, usable: provider.enabled && model.enabled };
}

/**
 * The options in effect: each unset (null) choice shows the system default, then the
 * built-in fallback (Demo model, effort "default", approval {@link DEFAULT_APPROVAL}).
 * @param {Options|null|undefined} chosen
 * @param {SysDefaults|null|undefined} sys
 */
export function effectiveOptions(chosen, sys) {
  const model = chosen?.model ?? sys?.defaultModel ?? DEMO_REF;
  return {
    model,
    effort: /** @type {Effort} */ (chosen?.effort ?? sys?.defaultEffort ?? "default"),
    approval:
      /** @type {ApprovalMode} */ (chosen?.approval ?? sys?.defaultApproval ?? DEFAULT_APPROVAL),
    isDemo: model.providerId === DEMO_PROVIDER_ID,
    inherited: {
      model: !chosen?.model,
      effort: !chosen?.effort,
      approval: !chosen?.approval,
    },
  };
}

/**
 * @param {ModelRef|null|undefined} a
 * @param {ModelRef|null|undefined} b
 */
export function sameModel(a, b) {
  return !!a && !!b && a.providerId === b.providerId && a.modelId === b.modelId;
}
