/**
 * What turns did to the workspace, written into the timeline so every client (and a
 * reload) sees the same (shapes in protocol/changes.ts): the net file change of
 * a turn on its user entry (`meta.changes`) and the net diff of one of its files; an
 * applied rewind as a `system` entry (`meta.kind: "rewind"`) that marks the turns it
 * rewound, and which rewind removed a file that is gone now.
 */
import {
  type ClientInfo,
  type Entry,
  type RewindEvent,
  rewindText,
  type TaskSummary,
  taskTopic,
  type TurnChanges,
  type TurnFileChange,
} from "../../protocol/index.ts";
import type { Repos } from "../../store/store.ts";
import type { IdFn } from "../../store/ids.ts";
import type { EventHub } from "./hub.ts";
import type { LineDiff } from "../../protocol/diff.ts";
import { OpError } from "../errors.ts";
import { type Blobs, netChanges, netDiff } from "../agent/turn_changes.ts";

export class TurnRecords {
  constructor(
    private repos: Repos,
    private hub: EventHub,
    private now: () => number,
    private blobs: Blobs,
    private newId: IdFn,
    private taskChanged: (t: TaskSummary) => void,
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
      this.put({ ...user, meta: { ...user.meta, changes }, updatedAt: this.now() });
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

  /**
   * Records an applied rewind to before the turn of user entry `turnId`: a `system`
   * entry at the end of the timeline (who, when, what was restored and removed) and
   * `changes.rewound` on every turn it rewound. Nothing when nothing changed.
   */
  rewound(
    taskId: string,
    turnId: string,
    done: { restore: string[]; remove: string[] },
    by: ClientInfo,
  ): Entry | null {
    if (!done.restore.length && !done.remove.length) return null;
    const { entries, tasks } = this.repos;
    const user = this.userEntry(taskId, turnId);
    const at = this.now();
    const first = user.parts.find((p) => p.type === "text")?.text?.trim().split("\n")[0] ?? "";
    const event: RewindEvent = {
      turnId,
      turnPos: user.pos,
      turnText: [...first].length > 80 ? [...first].slice(0, 79).join("") + "…" : first,
      restored: done.restore,
      removed: done.remove,
      by,
      at,
    };
    const out = entries.tx(() => {
      const entry = entries.append({
        id: this.newId("m"),
        taskId,
        role: "system",
        status: "done",
        parts: [{ type: "text", text: rewindText(event) }],
        meta: { kind: "rewind", rewind: event },
      });
      const marked: Entry[] = [];
      for (const u of entries.ofRole(taskId, "user", user.pos)) {
        const c = u.meta.changes as TurnChanges | undefined;
        if (!c || c.rewound) continue;
        const next = {
          ...u,
          meta: { ...u.meta, changes: { ...c, rewound: { entryId: entry.id, at } } },
          updatedAt: at,
        };
        entries.upsert(next);
        marked.push(next);
      }
      tasks.touch(taskId, false);
      return { entry, marked };
    });
    for (const e of [...out.marked, out.entry]) {
      this.hub.publish(taskTopic(taskId), { kind: "entry", entry: e }, `entry:${e.id}`);
    }
    const t = tasks.get(taskId);
    if (t) this.taskChanged(t);
    return out.entry;
  }

  /** The latest rewind of the task that removed `path` (workspace-relative), or null. */
  removedBy(taskId: string, path: string): { entryId: string; rewind: RewindEvent } | null {
    for (const e of this.repos.entries.ofRole(taskId, "system", 0, true)) {
      const r = e.meta.kind === "rewind" ? e.meta.rewind as RewindEvent | undefined : undefined;
      if (r?.removed.includes(path)) return { entryId: e.id, rewind: r };
    }
    return null;
  }
}
