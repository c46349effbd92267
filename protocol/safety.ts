/**
 * Protocol for command safety (Settings → General): what commands the agent
 * starts may see, and notices when someone lowers a safety setting. Merged into
 * `OP_ARGS` by `protocol.ts`.
 *
 * Defence in depth: a change that lowers safety (sandbox level or network, approval
 * mode, an `allow` tool rule, the env allow-list, the hidden paths) is pushed to every
 * client on topic {@link NOTICES_TOPIC}, naming the client that made it, and logged.
 */
import { obj, type Schema } from "./schema.ts";
import type { ClientInfo } from "./changes.ts";

export const NOTICES_TOPIC = "notices";

/** One lowered setting; values are the settings' own words (the UI translates them). */
export type SafetyChange =
  | { what: "sandboxLevel"; from: string; to: string }
  | { what: "sandboxNetwork"; from: boolean; to: boolean }
  | { what: "defaultApproval"; from: string; to: string }
  | { what: "taskApproval"; taskId: string; taskTitle: string; from: string; to: string }
  | { what: "taskSandbox"; taskId: string; taskTitle: string; from: string; to: string }
  | { what: "toolPolicy"; taskId: string; taskTitle: string; tool: string; to: "allow" }
  | { what: "envAllow"; added: string[] }
  | { what: "hiddenPaths"; removed: string[] }
  /** An MCP server that now runs (added or enabled; `target` = its command or URL). */
  | { what: "mcpServer"; id: string; target: string }
  /** Tools of an MCP server allowed without asking (`tool` absent = all of them). */
  | { what: "mcpPolicy"; id: string; tool?: string };

/** Topic `notices`: someone lowered safety; `by` is the client (device, browser, address). */
export interface SafetyNotice {
  kind: "safety";
  id: string;
  at: number;
  by: ClientInfo;
  changes: SafetyChange[];
}

/** Why a variable is withheld from commands. */
export type WithheldReason = "provider" | "reinagent" | "deno" | "secret";

export interface CommandSafetyInfo {
  /** Variables of the server's environment that commands do not get (names only). */
  withheld: { name: string; reason: WithheldReason }[];
  /** Names let through although they look like secrets. */
  allow: string[];
  /** Paths masked in the sandbox: the data folder first, then the user's list (expanded). */
  hidden: string[];
  /** Whether commands run in a sandbox now (level on and bubblewrap working). */
  sandboxed: boolean;
  /** Why not, in plain words (null when sandboxed). */
  unsandboxedReason: string | null;
  /** The latest safety notices, newest last (kept on the server). */
  recent: SafetyNotice[];
}

export const SAFETY_OP_ARGS = {
  "safety.info": obj({}),
} satisfies Record<string, Schema>;

export type SafetyOpResults = {
  "safety.info": CommandSafetyInfo;
};
