/** Enumerations shared by the protocol, the providers and the UI (a leaf module). */

export const EFFORT_LEVELS = ["off", "default", "low", "medium", "high", "xhigh", "max"] as const;
export type Effort = typeof EFFORT_LEVELS[number];

/** Sandbox levels for shell commands (bubblewrap when available). */
export const SANDBOX_LEVELS = ["off", "workspace-write", "read-only"] as const;
export type SandboxLevelName = typeof SANDBOX_LEVELS[number];

/** Agent steps per turn for each effort level; `full` approval = no cap. */
export const STEP_BUDGET: Readonly<Record<Effort, number>> = Object.freeze({
  off: 100,
  default: 100,
  low: 200,
  medium: 300,
  high: 400,
  xhigh: 500,
  max: 600,
});

/**
 * Levels offered when a model declares none: Default sends nothing, the
 * others are sent as a request the model may ignore (most `/v1/models` lists declare
 * nothing, and such models often do honour `reasoning_effort`).
 */
export const UNDECLARED_LEVELS: readonly Effort[] = ["default", "low", "medium", "high"];

/** The effort-related fields of a model (a leaf copy of `ModelInfo`'s). */
export interface EffortDeclaration {
  effortLevels: Effort[] | null;
  defaultEffort: Effort | null;
}

/** Levels to offer for a model: exactly its declared ones, else {@link UNDECLARED_LEVELS}. */
export function offeredLevels(model: Partial<EffortDeclaration> | null | undefined): Effort[] {
  return model?.effortLevels?.length ? [...model.effortLevels] : [...UNDECLARED_LEVELS];
}

/**
 * The level a turn really uses: the chosen one when the model offers it, else the
 * model's declared default, else its first offered level. The composer shows this
 * level and the run sends it, so what the screen says is what is sent.
 *
 * @example
 * effectiveEffort({ effortLevels: ["low", "high", "max"], defaultEffort: "high" }, "default");
 * // "high"
 */
export function effectiveEffort(
  model: Partial<EffortDeclaration> | null | undefined,
  chosen: Effort,
): Effort {
  const offered = offeredLevels(model);
  if (offered.includes(chosen)) return chosen;
  const def = model?.defaultEffort;
  return def && offered.includes(def) ? def : offered[0];
}

/** The built-in Demo provider's id. */
export const DEMO_PROVIDER_ID = "demo";

/** Approval modes of a task. */
export const APPROVAL_MODES = ["plan", "ask", "edit", "full"] as const;
export type ApprovalMode = typeof APPROVAL_MODES[number];

/**
 * A new install's approval mode: `edit` — file changes run (and can be rewound),
 * commands ask first, and the effort's step budget applies (`full` has no cap). An
 * install that stored a default (Settings → General) keeps it.
 */
export const DEFAULT_APPROVAL: ApprovalMode = "edit";
