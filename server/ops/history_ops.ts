/**
 * Handlers for the ops in `protocol/history.ts`: paging older entries, edit &
 * resend, retry and branch. Every change is validated first (task exists, entry
 * belongs to it with the right role, task not running) and written in one
 * transaction; then every client is told (`truncate` + `entry` on the task topic,
 * `upsert` on `tasks`) and the run starts.
 */
import {
  type Entry,
  type HISTORY_OP_ARGS,
  LIMITS,
  type Part,
  taskTopic,
} from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import { makeIdGenerator } from "../../store/ids.ts";
import { type OpContext, services, startRun } from "./context.ts";
import type { OpHandlers } from "./types.ts";

const newId = makeIdGenerator();

function notRunning(ctx: OpContext, id: string, what: string): void {
  if (services(ctx).runs.isRunning(id)) {
    throw new OpError("busy", `the task is running; stop it before ${what}`);
  }
}

/** The entry `entryId` of task `taskId` with role `role`, or `not_found`. */
function entryOf(ctx: OpContext, taskId: string, entryId: string, role: Entry["role"]): Entry {
  const e = services(ctx).repos.entries.get(entryId);
  if (!e || e.taskId !== taskId || e.role !== role) {
    const what = role === "user" ? "a user message" : "an assistant reply";
    throw new OpError("not_found", `entry ${entryId} is not ${what} of task ${taskId}`);
  }
  return e;
}

/** The user message that starts the turn of entry `e` (the latest one before it). */
function userOf(ctx: OpContext, e: Entry): Entry {
  const { entries } = services(ctx).repos;
  let before = e.pos;
  // Walk back in pages; a turn is rarely longer than a page.
  while (before > 1) {
    const page = entries.latest(e.taskId, 200, before);
    if (page.length === 0) break;
    const u = page.findLast((x) => x.role === "user");
    if (u) return u;
    before = page[0].pos;
  }
  throw new OpError("not_found", `entry ${e.id} has no user message before it to re-send`);
}

/**
 * Deletes every entry after user message `user` (and replaces its parts when given),
 * folds the deleted turns' checkpoints into this turn, drops approvals left over
 * from before a restart for the deleted calls, tells every client and starts a run.
 */
function cutAndRun(ctx: OpContext, user: Entry, parts: Part[] | null): Entry {
  const { repos: r, tasks, approvals } = services(ctx);
  const taskId = user.taskId;
  let next: Entry = parts ? { ...user, parts, updatedAt: Date.now() } : user;
  // A record of changes a rewind already put back no longer describes this turn.
  const stale = (user.meta.changes as { rewound?: unknown } | undefined)?.rewound !== undefined;
  if (stale) {
    const meta = { ...next.meta };
    delete meta.changes;
    next = { ...next, meta, updatedAt: Date.now() };
  }
  const changed = parts !== null || stale;
  const total = r.entries.tx(() => {
    r.entries.deleteAfter(taskId, user.pos);
    if (changed) r.entries.upsert(next);
    r.checkpoints.foldAfter(taskId, user.id, user.pos);
    r.tasks.touch(taskId, false);
    return r.entries.count(taskId);
  });
  for (const p of approvals.list()) {
    if (p.taskId === taskId && !p.live) approvals.dismiss(p.id);
  }
  // The folded rows and deleted turn records may have been the last to name some blobs.
  services(ctx).runs.checkpoints.collectSoon();
  const topic = taskTopic(taskId);
  ctx.hub.publish(topic, { kind: "truncate", afterPos: user.pos, total });
  if (changed) ctx.hub.publish(topic, { kind: "entry", entry: next }, `entry:${next.id}`);
  const task = r.tasks.get(taskId);
  if (task) tasks.publish(task);
  startRun(ctx, taskId);
  return next;
}

export const HISTORY_HANDLERS: OpHandlers<keyof typeof HISTORY_OP_ARGS> = {
  "task.entriesBefore": (ctx, a) => {
    const { repos: { entries }, tasks } = services(ctx);
    tasks.get(a.id);
    const page = entries.latest(a.id, a.limit ?? LIMITS.entryPage, a.beforePos);
    const remaining = page.length ? entries.countBefore(a.id, page[0].pos) : 0;
    return { entries: page, total: entries.count(a.id), remaining };
  },
  "task.editResend": async (ctx, a) => {
    notRunning(ctx, a.id, "editing a message");
    const user = entryOf(ctx, a.id, a.entryId, "user");
    // Attachments (images, files) stay; the text parts become the new text, whose
    // mentions and slash command are read again (composer_service.ts prepare).
    const kept = user.parts.filter((p) => p.type !== "text" && !p.data?.mention);
    const { tasks, composer } = services(ctx);
    const task = tasks.get(a.id);
    const { extra, meta } = await composer.prepare(task.projectPath, a.text, []);
    const parts: Part[] = [{ type: "text", text: a.text }, ...kept, ...extra];
    const { command: _old, ...rest } = user.meta;
    return { entry: cutAndRun(ctx, { ...user, meta: { ...rest, ...meta } }, parts) };
  },
  "task.retry": (ctx, a) => {
    services(ctx).tasks.get(a.id);
    notRunning(ctx, a.id, "retrying");
    const reply = entryOf(ctx, a.id, a.entryId, "assistant");
    return { entry: cutAndRun(ctx, userOf(ctx, reply), null) };
  },
  "task.branch": (ctx, a) => {
    const { repos: r, tasks } = services(ctx);
    const src = tasks.get(a.id);
    notRunning(ctx, a.id, "branching");
    const reply = entryOf(ctx, a.id, a.entryId, "assistant");
    const title = [...`Branch: ${src.title}`].slice(0, LIMITS.titleChars).join("");
    const task = r.entries.tx(() => {
      const t = r.tasks.create({
        id: newId("t"),
        title,
        projectPath: src.projectPath,
        settings: { ...src.settings, titleLocked: true },
      });
      const list = r.entries.latest(src.id, Number.MAX_SAFE_INTEGER, reply.pos + 1);
      for (const e of list) {
        r.entries.upsert({
          ...e,
          id: newId("m"),
          taskId: t.id,
          status: e.status === "streaming" ? "stopped" : e.status,
        });
      }
      r.tasks.touch(t.id, false);
      // The branch ends with the reply it was cut at: it ended as that reply did.
      r.tasks.setLastRun(t.id, reply.status === "stopped" ? "stopped" : "done");
      return r.tasks.get(t.id)!;
    });
    tasks.publish(task);
    return { task };
  },
};
