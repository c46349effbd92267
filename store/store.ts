/** The store facade: one database, its health and the repositories over it. */
import { openDatabase } from "./db.ts";
import { TaskRepo } from "./tasks.ts";
import { EntryRepo } from "./entries.ts";
import { KvRepo } from "./kv.ts";
import { ProviderRepo } from "./providers.ts";
import { PendingRepo } from "./pending.ts";
import { CheckpointRepo } from "./checkpoints.ts";
import { ProjectRepo } from "./projects.ts";
import { SubagentRepo } from "./subagents.ts";
import { PushSubscriptionRepo } from "./push_subscriptions.ts";
import { MemoryIndexRepo } from "./memory/index_repo.ts";
import { ImportRepo } from "./imports.ts";
import { AutomationRepo } from "./automations.ts";
import { UsageRepo } from "./usage.ts";
import type { StoreHealth } from "../protocol/index.ts";
import type { DatabaseSync } from "node:sqlite";

export interface Repos {
  tasks: TaskRepo;
  entries: EntryRepo;
  kv: KvRepo;
  providers: ProviderRepo;
  pending: PendingRepo;
  checkpoints: CheckpointRepo;
  projects: ProjectRepo;
  subagents: SubagentRepo;
  push: PushSubscriptionRepo;
  memoryIndex: MemoryIndexRepo;
  imports: ImportRepo;
  automations: AutomationRepo;
  usage: UsageRepo;
}

export class Store {
  readonly health: StoreHealth;
  /** Null when the database could not be opened (see `health`). */
  readonly repos: Repos | null;
  private db: DatabaseSync | null;

  constructor(path: string, now: () => number = Date.now) {
    const { db, health } = openDatabase(path);
    this.db = db;
    this.health = health;
    this.repos = db
      ? {
        tasks: new TaskRepo(db, now),
        entries: new EntryRepo(db, now),
        kv: new KvRepo(db, now),
        providers: new ProviderRepo(db, now),
        pending: new PendingRepo(db, now),
        checkpoints: new CheckpointRepo(db, now),
        projects: new ProjectRepo(db, now),
        subagents: new SubagentRepo(db, now),
        push: new PushSubscriptionRepo(db, now),
        memoryIndex: new MemoryIndexRepo(db),
        imports: new ImportRepo(db),
        automations: new AutomationRepo(db, now),
        usage: new UsageRepo(db),
      }
      : null;
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }
}
