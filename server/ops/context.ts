/** What an op handler can use: the services and the calling client's connection. */
import type { Store } from "../../store/store.ts";
import type { EventHub, HubClient } from "../sessions/hub.ts";
import type { TaskService } from "../sessions/task_service.ts";
import type { RunManager } from "../sessions/runs.ts";
import type { ApprovalCenter } from "../sessions/approvals.ts";

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
}

export interface OpContext extends ServerDeps {
  client: HubClient;
}
