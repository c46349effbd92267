/**
 * Hooks: commands the user configures to run at points of the agent's work
 * (before/after a tool, when a prompt is submitted, when a task starts or stops …), in
 * `<data dir>/config.json` (the user's, always trusted) and `<workspace>/.reinagent/config.json`
 * (a workspace's, run only once trusted for the exact hooks it holds).
 *
 * Ops: `hooks.list {project?}` (the configured hooks with their source and trust state;
 * subscribes to {@link HOOKS_TOPIC}), `hooks.trust {project, fingerprint}` (trusts the
 * workspace's hooks as listed: a config changed meanwhile is refused).
 */
import { obj, type Schema, str } from "./schema.ts";

/** Events a hook can run at; the names are Claude Code's, so its hook scripts work. */
export const HOOK_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "PermissionRequest",
  "UserPromptSubmit",
  "SessionStart",
  "Stop",
  "Notification",
  "SubagentStop",
  "PreCompact",
] as const;
export type HookEvent = typeof HOOK_EVENTS[number];

export const HOOK_LIMITS = {
  /** Hooks read from one config file (the rest is reported as an error). */
  perFile: 50,
  commandChars: 4000,
  matcherChars: 200,
  defaultTimeoutMs: 60_000,
  maxTimeoutMs: 600_000,
  /** Bytes of stdout/stderr kept of a hook (the rest is cut). */
  outputBytes: 64 * 1024,
  /** Characters of a reason or additional context a hook may add. */
  textChars: 10_000,
} as const;

/** One configured hook, as listed. */
export interface HookView {
  event: HookEvent;
  /** Tool name pattern (`Bash`, `exec_command`, `Edit|Write`, `mcp__.*`); empty = all. */
  matcher: string;
  command: string;
  timeoutMs: number;
}

/**
 * How a config's hooks stand: `user` (the user's own file: runs), `trusted`, `untrusted`
 * (never trusted: does not run), `changed` (trusted once, edited or removed since: the
 * new hooks do not run, the trusted ones still do), `invalid` (the file cannot be read as
 * hooks: none of it runs; a workspace's trusted hooks still do).
 */
export type HookTrustState = "user" | "trusted" | "untrusted" | "changed" | "invalid";

/** One config file that has hooks (or could not be read). */
export interface HookSource {
  kind: "user" | "workspace";
  /** The config file. */
  path: string;
  /** The workspace it belongs to (null for the user's). */
  project: string | null;
  state: HookTrustState;
  /** sha256 of the hooks as read (what `hooks.trust` binds to); "" when invalid. */
  fingerprint: string;
  error?: string;
  hooks: HookView[];
  /**
   * A workspace's hooks as last trusted, when the file changed, broke or went away since:
   * these keep running until the change is reviewed (trusted).
   */
  trustedHooks?: HookView[];
}

/** Topic `hooks`: a workspace's hooks were trusted, or found untrusted by a run. */
export type HooksEvent = { kind: "changed"; project: string | null };
export const HOOKS_TOPIC = "hooks";

const folderPath = str({ min: 1, max: 4096 });

export const HOOK_OP_ARGS = {
  /** The user's hooks and those of `project` (default: of every project). */
  "hooks.list": obj({ "project?": folderPath }),
  /** Trusts the workspace's hooks whose fingerprint `hooks.list` showed. */
  "hooks.trust": obj({
    project: folderPath,
    fingerprint: str({ min: 64, max: 64, pattern: /^[0-9a-f]{64}$/ }),
  }),
} satisfies Record<string, Schema>;

export interface HookOpResults {
  "hooks.list": { sources: HookSource[]; seq: number };
  "hooks.trust": { source: HookSource };
}
