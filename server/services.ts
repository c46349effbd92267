/**
 * Builds the services behind the protocol (store, hub, tasks, runs) for one data dir.
 * Used by the HTTP app and by tests that drive ops directly.
 */
import { join } from "../lib/path.ts";
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
import { SANDBOX, sandboxStatus } from "../tools/exec/bwrap.ts";
import { McpManager } from "./mcp/manager.ts";
import { commandPolicy } from "./agent/command_policy.ts";
import { MCP_TOPIC } from "../protocol/mcp_servers.ts";
import { taskTopic } from "../protocol/index.ts";
import { EditorBridge } from "./sessions/editor_bridge.ts";
import { SETTINGS_TOPIC } from "../protocol/providers.ts";
import { NotifyCenter } from "./notify/notify_center.ts";
import { extractorOf } from "./agent/memory_extraction.ts";
import { MEMORY_TOPIC } from "../protocol/memory.ts";
import { AUTOMATION_CLIENT, AutomationService } from "./automations/service.ts";
import { runOp } from "./ops/dispatch.ts";
import { realFolder } from "./ops/projects_ops.ts";
import { hookEngineFor } from "./sessions/hook_wiring.ts";

export interface ServiceOptions {
  home: string;
  now?: () => number;
  /** Hub flush interval (ms); tests may shorten it. */
  flushMs?: number;
  tools?: ToolRegistry;
  /** Database path; default `<home>/reinagent.db`. */
  db?: string;
  /** Watch mcp_servers.json for outside edits (the CLI); the app turns it on. */
  watchMcp?: boolean;
}

export function createServices(opts: ServiceOptions): ServerDeps {
  const now = opts.now ?? Date.now;
  const store = new Store(opts.db ?? dbPath(opts.home), now);
  const hub = new EventHub(opts.flushMs);
  const newId = makeIdGenerator(now);
  const repos = store.repos;
  const tasks = repos ? new TaskService(repos, hub, newId, opts.home) : null;
  // Recovery after a crash or kill: nothing is running in a fresh process.
  repos?.entries.stopLeftovers();
  repos?.subagents.stopLeftovers();
  repos?.tasks.resetStatuses();
  // Every client hears when commands become sandboxed or stop being so.
  hub.onClose(
    SANDBOX.onChange((s) =>
      hub.publish(SETTINGS_TOPIC, { kind: "sandbox", available: s.available })
    ),
  );
  // Editors (ACP clients) serving their tasks' file tools and commands.
  const editors = new EditorBridge();
  hub.onLeave((c) => editors.dropClient(c.id));
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
      async (settings, taskId) => {
        // The editor's terminal runs commands outside bubblewrap, whatever the level.
        if (editors.access(taskId)?.caps.terminal) return "editor";
        if ((settings.sandbox ?? getSettings(repos).sandboxLevel) === "off") return "off";
        // A failed probe is retried here (rate-limited): before a command would run bare.
        return (await sandboxStatus()).available ? null : "unavailable";
      },
    )
    : null;
  if (approvals) approvals.home = opts.home;
  // MCP servers as tools: stdio servers see what shell commands see of the environment.
  const mcp = new McpManager({
    home: opts.home,
    envPolicy: () => repos ? commandPolicy(repos, opts.home).envPolicy : {},
    publish: (e) => hub.publish(MCP_TOPIC, e),
    // A server's question goes to the clients that have the asking task open.
    questions: {
      task: (taskId, list) => hub.publish(taskTopic(taskId), { kind: "mcpQuestions", list }),
      watching: (taskId) => hub.list().some((c) => c.topics.has(taskTopic(taskId))),
    },
    now,
    watch: opts.watchMcp,
  });
  // A question only the leaving client was shown goes to every client.
  hub.onLeave(() => mcp.elicitations.reroute());
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
      extraTools: (signal, only, taskId) => mcp.toolsForTurn(signal, only, taskId),
      editorOf: (taskId) => editors.access(taskId),
      memoryChanged: (scope, projectPath) =>
        hub.publish(MEMORY_TOPIC, { kind: "changed", scope, projectPath }),
      hooks,
    })
    : null;
  // Post-turn memory extraction (off unless the memory setting is on).
  if (runs && repos) {
    const extractor = extractorOf(runs, () => ({
      repos,
      home: opts.home,
      now,
      resolveModel: (ref) => resolveModel(repos, ref),
      changed: (scope, projectPath) =>
        hub.publish(MEMORY_TOPIC, { kind: "changed", scope, projectPath }),
      closing: runs.closingSignal,
      track: (p) => runs.track(p),
    }));
    runs.onFinish((taskId, natural) => extractor.afterRun(taskId, natural));
  }
  // The steering queue hooks into run ends from the start (queued messages survive restarts).
  composerOf({ home: opts.home, store, hub, tasks, runs, mcp });
  const safety = new SafetyLog(hub, repos?.kv ?? null, now);
  // Notifications when a task waits or ends: every page (the notify topic) and Web Push.
  const notify = repos
    ? new NotifyCenter({ home: opts.home, repos, hub, approvals, newId, now })
    : null;
  // Scheduled prompts: ops run as the automation client (the timer starts with the server).
  const automations = repos && tasks && runs
    ? new AutomationService({ repos, hub, newId, now, checkFolder: realFolder })
    : null;
  const deps: ServerDeps = {
    version: VERSION,
    home: opts.home,
    store,
    hub,
    tasks,
    runs,
    approvals,
    safety,
    hooks,
    mcp,
    notify,
    automations,
    editors,
  };
  const client = { id: "automation-ops", topics: new Set<string>(), info: AUTOMATION_CLIENT };
  automations?.bind((op, args) =>
    runOp({ ...deps, client: { ...client, deliver() {} } }, op, args)
  );
  return deps;
}

export const defaultProjectDir = (home: string) => join(home, "DefaultProject");
