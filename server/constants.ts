/** Enumerations shared by the protocol, the providers and the UI (a leaf module). */

export const EFFORT_LEVELS = ["off", "default", "low", "medium", "high", "xhigh", "max"] as const;
export type Effort = typeof EFFORT_LEVELS[number];

/** Sandbox levels for shell commands (bubblewrap when available). */
export const SANDBOX_LEVELS = ["off", "workspace-write", "read-only"] as const;
export type SandboxLevelName = typeof SANDBOX_LEVELS[number];

/** Approval modes of a task (SPEC §4.4); `full` is the default. */
export const APPROVAL_MODES = ["plan", "ask", "edit", "full"] as const;
export type ApprovalMode = typeof APPROVAL_MODES[number];
