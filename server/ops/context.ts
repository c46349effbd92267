/** What an op handler can use: the services and the calling client's connection. */
import type { Store } from "../../store/store.ts";
import type { EventHub, HubClient } from "../sessions/hub.ts";
import type { TaskService } from "../sessions/task_service.ts";
import type { RunManager } from "../sessions/runs.ts";
import type { ApprovalCenter } from "../sessions/approvals.ts";
import type { SafetyLog } from "../sessions/safety.ts";
import type { ClientInfo } from "../../protocol/index.ts";
import { CLI_CLIENT } from "../sessions/clients.ts";

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

/** The calling client, for records and notices; in-process callers are the CLI. */
export const whoIs = (ctx: OpContext): ClientInfo => ctx.client.info ?? CLI_CLIENT;
