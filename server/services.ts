/**
 * Builds the services behind the protocol (store, hub, tasks, runs) for one data dir.
 * Used by the HTTP app and by tests that drive ops directly.
 */
import { join } from "node:path";
import { dbPath } from "./home.ts";
import { Store } from "../store/store.ts";
import { makeIdGenerator } from "../store/ids.ts";
import { EventHub } from "./sessions/hub.ts";
import { TaskService } from "./sessions/task_service.ts";
import { RunManager } from "./sessions/runs.ts";
import { ApprovalCenter } from "./sessions/approvals.ts";
import { defaultTools, type ToolRegistry } from "../tools/registry.ts";
import { getSettings, resolveModel } from "./providers/catalog.ts";
import type { ServerDeps } from "./ops/context.ts";
import { VERSION } from "./version.ts";
import { composerOf } from "./composer/composer_service.ts";
import { SafetyLog } from "./sessions/safety.ts";
import { sandboxStatus } from "../tools/exec/bwrap.ts";
import { McpManager } from "./mcp/manager.ts";
import { commandPolicy } from "./agent/command_policy.ts";
import { MCP_TOPIC } from "../protocol/mcp_servers.ts";
import { NotifyCenter } from "./notify/notify_center.ts";
import { hookEngineFor } from "./sessions/hook_wiring.ts";

export interface ServiceOptions {
  home: string;
  now?: () => number;
  /** Hub flush interval (ms); tests may shorten it. */
  flushMs?: number;
  tools?: ToolRegistry;
  /** Database path; default `<home>/reinagent.db`. */
  db?: string;
  /** Probe the shell sandbox at once (the server; a headless run waits until a command). */
  probeSandbox?: boolean;
  /** Watch mcp_servers.json for outside edits (the CLI); the app turns it on. */
  watchMcp?: boolean;
}

export function createServices(opts: ServiceOptions): ServerDeps {
  const now = opts.now ?? Date.now;
  const store = new Store(opts.db ?? dbPath(opts.home), now);
  const hub = new EventHub(opts.flushMs);
  const newId = makeIdGenerator(now);
  const repos = store.repos;
  const tasks = repos ? new TaskService(repos, hub, newId) : null;
  // Recovery after a crash or kill: nothing is running in a fresh process.
  repos?.entries.stopLeftovers();
  repos?.subagents.stopLeftovers();
  repos?.tasks.resetStatuses();
  const approvals = repos && tasks
    ? new ApprovalCenter(
      repos,
      hub,
      newId,
      now,
      () => getSettings(repos).defaultApproval,
      (taskId, waiting) => {
        const t = repos.tasks.setStatus(taskId, waiting ? "waiting" : "running");
        if (t) tasks.publish(t);
      },
      (taskId) => {
        const t = repos.tasks.get(taskId);
        if (t) tasks.publish(t);
      },
      async () => {
        const s = getSettings(repos);
        if (s.sandboxLevel === "off") return "off";
        return (await sandboxStatus()).available ? null : "unavailable";
      },
    )
    : null;
  // MCP servers as tools: stdio servers see what shell commands see of the environment.
  const mcp = new McpManager({
    home: opts.home,
    envPolicy: () => repos ? commandPolicy(repos, opts.home).envPolicy : {},
    publish: (e) => hub.publish(MCP_TOPIC, e),
    now,
    watch: opts.watchMcp,
  });
  // Hooks run as commands do (same sandbox and environment policy), asked by the gate too.
  const hooks = repos && approvals ? hookEngineFor(opts.home, repos, hub, approvals) : undefined;
  const runs = repos && tasks
    ? new RunManager({
      repos,
      hub,
      newId,
      now,
      home: opts.home,
      tools: opts.tools ?? defaultTools(),
      resolveModel: (ref) => resolveModel(repos, ref),
      defaults: () => {
        const s = getSettings(repos);
        return {
          effort: s.defaultEffort,
          approval: s.defaultApproval,
          sandbox: s.sandboxLevel,
          network: s.sandboxNetwork,
          compactModel: s.compactModel,
        };
      },
      taskChanged: (t) => tasks.publish(t),
      // PreToolUse hooks first (a sub-agent's calls too), then the approval gate.
      gate: async (taskId, call, kind, signal, policy, origin) =>
        await hooks?.beforeGate(taskId, call) ??
          await approvals!.check(taskId, call, kind, signal, policy, origin),
      extraTools: (signal) => mcp.toolsForTurn(signal),
      hooks,
    })
    : null;
  // The steering queue hooks into run ends from the start (queued messages survive restarts).
  composerOf({ home: opts.home, store, hub, tasks, runs });
  const safety = new SafetyLog(hub, repos?.kv ?? null, now);
  // A server probes bubblewrap once now, so the first settings snapshot and command do not
  // wait; a headless run probes it when a command first needs it (two processes saved).
  if (opts.probeSandbox) {
    sandboxStatus().catch((e) => console.error("probing bubblewrap failed:", e));
  }
  // Notifications when a task waits or ends: every page (the notify topic) and Web Push.
  const notify = repos
    ? new NotifyCenter({ home: opts.home, repos, hub, approvals, newId, now })
    : null;
  return {
    version: VERSION,
    home: opts.home,
    store,
    hub,
    tasks,
    runs,
    approvals,
    safety,
    mcp,
    notify,
  };
}

export const defaultProjectDir = (home: string) => join(home, "DefaultProject");
