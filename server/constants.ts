/** Enumerations shared by the protocol, the providers and the UI (a leaf module). */

export const EFFORT_LEVELS = ["off", "default", "low", "medium", "high", "xhigh", "max"] as const;
export type Effort = typeof EFFORT_LEVELS[number];

/** Sandbox levels for shell commands (bubblewrap when available). */
export const SANDBOX_LEVELS = ["off", "workspace-write", "read-only"] as const;
export type SandboxLevelName = typeof SANDBOX_LEVELS[number];

/** Agent steps per turn for each effort level (SPEC §2.6); `full` approval = no cap. */
export const STEP_BUDGET: Readonly<Record<Effort, number>> = Object.freeze({
  off: 100,
  default: 100,
  low: 200,
  medium: 300,
  high: 400,
  xhigh: 500,
  max: 600,
});

/** Levels offered when a model declares none. */
export const UNDECLARED_LEVELS: readonly Effort[] = ["default", "low", "medium", "high"];

/** The built-in Demo provider's id. */
export const DEMO_PROVIDER_ID = "demo";

/** Approval modes of a task (SPEC §4.4). */
export const APPROVAL_MODES = ["plan", "ask", "edit", "full"] as const;
export type ApprovalMode = typeof APPROVAL_MODES[number];

/**
 * A new install's approval mode: `edit` — file changes run (and can be rewound),
 * commands ask first, and the effort's step budget applies (`full` has no cap). An
 * install that stored a default (Settings → General) keeps it.
 */
export const DEFAULT_APPROVAL: ApprovalMode = "edit";
