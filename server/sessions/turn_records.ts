/**
 * What turns did to the workspace, written into the timeline so every client (and a
 * reload) sees the same: the net file change of a turn on its user entry
 * (`meta.changes`, see server/protocol_changes.ts) and the net diff of one of its files.
 */
import { type Entry, taskTopic, type TurnChanges, type TurnFileChange } from "../protocol.ts";
import type { Repos } from "../../store/store.ts";
import type { EventHub } from "./hub.ts";
import type { LineDiff } from "../../tools/diff.ts";
import { OpError } from "../errors.ts";
import { type Blobs, netChanges, netDiff } from "../agent/turn_changes.ts";

export class TurnRecords {
  constructor(
    private repos: Repos,
    private hub: EventHub,
    private now: () => number,
    private blobs: Blobs,
  ) {}

  /** Writes an entry and tells every client. */
  private put(e: Entry): void {
    this.repos.entries.upsert(e);
    this.hub.publish(taskTopic(e.taskId), { kind: "entry", entry: e }, `entry:${e.id}`);
  }

  /** The user entry `id` of task `taskId`, or `not_found`. */
  userEntry(taskId: string, id: string): Entry {
    const e = this.repos.entries.get(id);
    if (!e || e.taskId !== taskId || e.role !== "user") {
      throw new OpError("not_found", `entry ${id} is not a user message of task ${taskId}`);
    }
    return e;
  }

  /**
   * Records the turn's net file change (before the turn → now) on its user entry; a
   * turn whose checkpoint has no rows keeps what it had (e.g. the record of a rewind).
   * Never throws: a run's end must not fail over it.
   */
  async changes(taskId: string, turn: { id: string }, workspace: string): Promise<void> {
    try {
      const rows = this.repos.checkpoints.ofTurn(taskId, turn.id);
      if (!rows.length) return;
      const changes = await netChanges(rows, workspace, this.blobs, this.now());
      const user = this.repos.entries.get(turn.id);
      if (!user || user.taskId !== taskId) return;
      const meta = { ...user.meta };
      if (changes) meta.changes = changes;
      else delete meta.changes;
      this.put({ ...user, meta, updatedAt: this.now() });
    } catch (e) {
      console.error(`could not record the file changes of task ${taskId}:`, e);
    }
  }

  /** The net diff of `path` over the turn of user entry `turnId`, from the kept versions. */
  async diff(
    taskId: string,
    turnId: string,
    path: string,
  ): Promise<{ change: TurnFileChange; diff: LineDiff }> {
    const user = this.userEntry(taskId, turnId);
    const files = (user.meta.changes as TurnChanges | undefined)?.files ?? [];
    const change = files.find((f) => f.path === path);
    if (!change) throw new OpError("not_found", `the turn did not change ${path}`);
    const diff = await netDiff(change, this.blobs);
    if (!diff) {
      const why = change.note ?? "its versions are no longer kept";
      throw new OpError("not_found", `no line diff of ${path} for this turn (${why})`);
    }
    return { change, diff };
  }
}
