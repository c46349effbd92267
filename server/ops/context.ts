/** What an op handler can use: the services and the calling client's connection. */
import type { Repos, Store } from "../../store/store.ts";
import type { EventHub, HubClient } from "../sessions/hub.ts";
import type { TaskService } from "../sessions/task_service.ts";
import type { RunManager } from "../sessions/runs.ts";
import type { ApprovalCenter } from "../sessions/approvals.ts";
import type { SafetyLog } from "../sessions/safety.ts";
import type { ClientInfo } from "../../protocol/index.ts";
import { CLI_CLIENT } from "../sessions/clients.ts";
import { composerOf, type ComposerService } from "../composer/composer_service.ts";
import { OpError } from "../errors.ts";
import type { McpManager } from "../mcp/manager.ts";
import type { RemoteAccess } from "../sessions/remote_access.ts";
import type { NotifyCenter } from "../notify/notify_center.ts";
import type { AutomationService } from "../automations/service.ts";
import type { HookEngine } from "../agent/hooks/engine.ts";
import type { EditorBridge } from "../sessions/editor_bridge.ts";

export interface ServerDeps {
  version: string;
  home: string;
  store: Store;
  hub: EventHub;
  /** Null when the store is unavailable. */
  tasks: TaskService | null;
  /** Null when the store is unavailable. */
  runs: RunManager | null;
  /** Null when the store is unavailable. */
  approvals: ApprovalCenter | null;
  /** Notices of lowered safety (every client is told). */
  safety: SafetyLog;
  /** The hook engine (absent when the store is unavailable). */
  hooks?: HookEngine;
  /** The MCP servers the agent uses (absent in harnesses that do not need them). */
  mcp?: McpManager;
  /** URLs, clients, token reset, trusted proxy (absent without the HTTP server). */
  remote?: RemoteAccess;
  /** Notifications and Web Push (null when the store is unavailable; absent in some harnesses). */
  notify?: NotifyCenter | null;
  /** Scheduled prompts (null when the store is unavailable; absent in some harnesses). */
  automations?: AutomationService | null;
  /** Editors attached to tasks (`reinagent acp`), serving their file tools and commands. */
  editors?: EditorBridge;
}

export interface OpContext extends ServerDeps {
  client: HubClient;
}

/** The calling client, for records and notices; in-process callers are the CLI. */
export const whoIs = (ctx: OpContext): ClientInfo => ctx.client.info ?? CLI_CLIENT;

/** The services an op may need; every one exists exactly when the database is open. */
export interface OpServices {
  readonly repos: Repos;
  readonly tasks: TaskService;
  readonly runs: RunManager;
  readonly approvals: ApprovalCenter;
  readonly composer: ComposerService;
}

/**
 * The services behind the ops, non-null. Each is looked up when read, so a handler
 * fails with `store_unavailable` only for what it uses (the provider ops run with a
 * store but no task services in tests); read them before changing anything.
 *
 * @example
 * const { tasks, runs } = services(ctx); // throws store_unavailable when the DB is down
 */
export function services(ctx: OpContext): OpServices {
  const need = <T>(service: T | null): T => {
    if (service === null) {
      throw new OpError(
        "store_unavailable",
        `the database could not be opened (${ctx.store.health.error}); it was left untouched`,
      );
    }
    return service;
  };
  return {
    get repos() {
      return need(ctx.store.repos);
    },
    get tasks() {
      return need(ctx.tasks);
    },
    get runs() {
      return need(ctx.runs);
    },
    get approvals() {
      return need(ctx.approvals);
    },
    get composer() {
      return need(composerOf(ctx));
    },
  };
}

/** Starts a run in the background; its failures land in the timeline, not here. */
export function startRun(ctx: OpContext, id: string): void {
  services(ctx).runs.start(id).catch((e) => console.error(`run ${id}:`, e));
}
