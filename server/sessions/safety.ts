/**
 * Safety notices: a change that lowers safety is told to every client (naming the
 * client that made it), written to the server log and kept (the latest 30) for
 * Settings. A prompt injection that somehow reached the control plane cannot lower
 * safety unseen.
 */
import type {
  ClientInfo,
  SafetyChange,
  SafetyNotice,
  SystemSettings,
} from "../../protocol/index.ts";
import { clientWords, NOTICES_TOPIC } from "../../protocol/index.ts";
import type { EventHub } from "./hub.ts";
import type { KvRepo } from "../../store/kv.ts";

const NOTICES_KEY = "security.notices";
const KEEP = 30;

/** Higher = safer. */
export const SANDBOX_RANK: Record<string, number> = {
  "off": 0,
  "workspace-write": 1,
  "read-only": 2,
};
/** Higher = safer. */
export const APPROVAL_RANK: Record<string, number> = { full: 0, edit: 1, ask: 2, plan: 3 };

/** The changes from `before` to `after` that lower safety. */
export function loweredSettings(before: SystemSettings, after: SystemSettings): SafetyChange[] {
  const out: SafetyChange[] = [];
  if (SANDBOX_RANK[after.sandboxLevel] < SANDBOX_RANK[before.sandboxLevel]) {
    out.push({ what: "sandboxLevel", from: before.sandboxLevel, to: after.sandboxLevel });
  }
  if (after.sandboxNetwork && !before.sandboxNetwork) {
    out.push({ what: "sandboxNetwork", from: false, to: true });
  }
  if (APPROVAL_RANK[after.defaultApproval] < APPROVAL_RANK[before.defaultApproval]) {
    out.push({ what: "defaultApproval", from: before.defaultApproval, to: after.defaultApproval });
  }
  const added = after.commandEnvAllow.filter((n) => !before.commandEnvAllow.includes(n));
  if (added.length) out.push({ what: "envAllow", added });
  const removed = before.hiddenPaths.filter((p) => !after.hiddenPaths.includes(p));
  if (removed.length) out.push({ what: "hiddenPaths", removed });
  return out;
}

/** One line per change, for the server log. */
export function describeChange(c: SafetyChange): string {
  switch (c.what) {
    case "sandboxLevel":
    case "defaultApproval":
      return `${c.what} ${c.from} → ${c.to}`;
    case "sandboxNetwork":
      return "sandbox network off → on";
    case "taskApproval":
      return `approval of task "${c.taskTitle}" ${c.from} → ${c.to}`;
    case "taskSandbox":
      return `sandbox of task "${c.taskTitle}" ${c.from} → ${c.to}`;
    case "toolPolicy":
      return `tool ${c.tool} always allowed in task "${c.taskTitle}"`;
    case "envAllow":
      return `commands may now see ${c.added.join(", ")}`;
    case "hiddenPaths":
      return `no longer hidden from commands: ${c.removed.join(", ")}`;
    case "mcpServer":
      return `MCP server ${c.id} runs: ${c.target}`;
    case "mcpPolicy":
      return `MCP ${c.id}${c.tool ? `/${c.tool}` : ""} always allowed`;
  }
}

export class SafetyLog {
  constructor(
    private hub: EventHub,
    private kv: KvRepo | null,
    private now: () => number = Date.now,
  ) {}

  /** Announces `changes` (nothing when empty). */
  announce(by: ClientInfo, changes: SafetyChange[]): void {
    if (!changes.length) return;
    const notice: SafetyNotice = {
      kind: "safety",
      id: crypto.randomUUID(),
      at: this.now(),
      by,
      changes,
    };
    console.warn(
      `ReinAgent: safety lowered by ${clientWords(by)}: ${changes.map(describeChange).join("; ")}`,
    );
    if (this.kv) this.kv.set(NOTICES_KEY, [...this.recent(), notice].slice(-KEEP));
    this.hub.publish(NOTICES_TOPIC, notice);
  }

  recent(): SafetyNotice[] {
    const v = this.kv?.get(NOTICES_KEY);
    return Array.isArray(v) ? v as SafetyNotice[] : [];
  }
}
