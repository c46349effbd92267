/** What an op handler can use: the services and the calling client's connection. */
import type { Store } from "../../store/store.ts";
import type { EventHub, HubClient } from "../sessions/hub.ts";
import type { TaskService } from "../sessions/task_service.ts";
import type { RunManager } from "../sessions/runs.ts";
import type { ApprovalCenter } from "../sessions/approvals.ts";
import type { SafetyLog } from "../sessions/safety.ts";

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
}

export interface OpContext extends ServerDeps {
  client: HubClient;
}

/** The calling client for notices and the log; in-process callers have no socket. */
export const whoIs = (ctx: OpContext): string => ctx.client.label ?? "this computer (in-process)";
