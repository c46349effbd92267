/**
 * Which model a run uses: the task's choice, else the system default, else Demo when
 * nothing is configured. A choice that is missing or disabled is an error — never a
 * silent fallback to another model (SPEC §12).
 */
import type { ApprovalMode, Effort, ModelRef } from "../protocol.ts";
import { APPROVAL_MODES, EFFORT_LEVELS } from "../protocol.ts";
import type { Repos } from "../../store/store.ts";
import type { ModelInfo, ProviderConfig } from "./types.ts";
import { DEMO_MODEL, DEMO_PROVIDER, DEMO_PROVIDER_ID } from "./demo.ts";
import { OpError } from "../errors.ts";

export const DEFAULT_MODEL_KEY = "settings.defaultModel";
export const DEFAULT_EFFORT_KEY = "settings.defaultEffort";
export const DEFAULT_APPROVAL_KEY = "settings.defaultApproval";

export function resolveModelRef(
  repos: Repos,
  ref: ModelRef | null,
): { provider: ProviderConfig; model: ModelInfo } {
  const chosen = ref ?? (repos.kv.get(DEFAULT_MODEL_KEY) as ModelRef | undefined) ?? null;
  if (!chosen || chosen.providerId === DEMO_PROVIDER_ID) {
    if (chosen && chosen.modelId !== DEMO_MODEL.id) {
      throw new OpError("not_found", `the Demo provider has no model "${chosen.modelId}"`);
    }
    return { provider: DEMO_PROVIDER, model: DEMO_MODEL };
  }
  const provider = repos.providers.get(chosen.providerId);
  if (!provider) throw new OpError("not_found", `provider "${chosen.providerId}" does not exist`);
  if (!provider.enabled) throw new OpError("not_found", `provider "${provider.name}" is disabled`);
  const model = provider.models.find((m) => m.id === chosen.modelId);
  if (!model) {
    throw new OpError(
      "not_found",
      `model "${chosen.modelId}" is not configured for provider "${provider.name}"`,
    );
  }
  if (!model.enabled) {
    throw new OpError("not_found", `model "${model.name}" of "${provider.name}" is disabled`);
  }
  return { provider, model };
}

/** System defaults for effort and approval mode (SPEC §4.4: `full` by default). */
export function readDefaults(repos: Repos): { effort: Effort; approval: ApprovalMode } {
  const e = repos.kv.get(DEFAULT_EFFORT_KEY);
  const a = repos.kv.get(DEFAULT_APPROVAL_KEY);
  return {
    effort: (EFFORT_LEVELS as readonly unknown[]).includes(e) ? e as Effort : "default",
    approval: (APPROVAL_MODES as readonly unknown[]).includes(a) ? a as ApprovalMode : "full",
  };
}
