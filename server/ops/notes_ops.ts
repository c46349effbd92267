/** Handlers for the ops in `protocol/notes.ts` (the Notes page, the task menu's "Organise"). */
import {
  type ModelRef,
  type NotebooksView,
  type NotebookView,
  NOTES_LIMITS,
  type NOTES_OP_ARGS,
  NOTES_TOPIC,
} from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import type { OpContext } from "./context.ts";
import { services } from "./context.ts";
import type { OpHandlers } from "./types.ts";
import { join } from "../../lib/path.ts";
import { NotesError, NotesFiles } from "../../store/notes/files.ts";
import { resolveModel } from "../providers/catalog.ts";
import { adapterFor } from "../../agent/index.ts";
import { AssistError, assistNote, type SideTarget } from "../notes/assist.ts";
import { noteNameFrom, ORGANISE_ENTRIES, organiseConversation } from "../notes/organise.ts";

const CODES = {
  invalid: "invalid_args",
  not_found: "not_found",
  exists: "conflict",
  corrupt: "conflict",
  conflict: "conflict",
  full: "too_large",
} as const;

/** One instance per folder: its per-file save lock must be shared by every client. */
const byRoot = new Map<string, NotesFiles>();
function filesOf(ctx: OpContext): NotesFiles {
  const root = join(ctx.home, "notebooks");
  let f = byRoot.get(root);
  if (!f) byRoot.set(root, f = new NotesFiles(root));
  return f;
}

async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof NotesError) throw new OpError(CODES[e.code], e.message);
    if (e instanceof AssistError) throw new OpError("upstream", e.message);
    throw e;
  }
}

function changed(
  ctx: OpContext,
  notebook: string | null,
  note: string | null = null,
  version?: string,
): void {
  ctx.hub.publish(NOTES_TOPIC, {
    kind: "changed",
    notebook,
    note,
    ...(version ? { version } : {}),
  });
}

async function notebooks(f: NotesFiles): Promise<NotebooksView> {
  return { root: f.root, ...(await f.listNotebooks()) };
}

async function notebook(f: NotesFiles, name: string): Promise<NotebookView> {
  return { notebook: name, ...(await f.listNotes(name)) };
}

/** The model for a side request: the task's, else the one given, else the default. */
async function sideTarget(ctx: OpContext, taskId: string | null, model: ModelRef | null) {
  const { repos } = services(ctx);
  const ref = taskId ? repos.tasks.get(taskId)?.settings.model ?? null : model;
  let target;
  try {
    target = resolveModel(repos, ref);
  } catch (e) {
    throw new OpError("invalid_args", (e as Error).message);
  }
  if (target.provider.format === "demo") {
    throw new OpError(
      "invalid_args",
      "the Demo model cannot work on notes; pick a real model in the composer",
    );
  }
  const adapter = await adapterFor(target.provider.format);
  return { ...target, adapter } satisfies SideTarget;
}

export const NOTES_HANDLERS: OpHandlers<keyof typeof NOTES_OP_ARGS> = {
  "notes.list": (ctx) => {
    ctx.client.topics.add(NOTES_TOPIC);
    return guarded(() => notebooks(filesOf(ctx)));
  },
  "notes.createNotebook": (ctx, a) =>
    guarded(async () => {
      const f = filesOf(ctx);
      await f.createNotebook(a.name);
      changed(ctx, a.name);
      return notebooks(f);
    }),
  "notes.renameNotebook": (ctx, a) =>
    guarded(async () => {
      const f = filesOf(ctx);
      await f.renameNotebook(a.name, a.to);
      changed(ctx, a.to);
      return notebooks(f);
    }),
  "notes.deleteNotebook": (ctx, a) =>
    guarded(async () => {
      const f = filesOf(ctx);
      await f.deleteNotebook(a.name);
      changed(ctx, a.name);
      return notebooks(f);
    }),
  "notes.notes": (ctx, a) => guarded(() => notebook(filesOf(ctx), a.notebook)),
  "notes.read": (ctx, a) => guarded(() => filesOf(ctx).read(a.notebook, a.note)),
  "notes.create": (ctx, a) =>
    guarded(async () => {
      const doc = await filesOf(ctx).create(a.notebook, a.name, a.body);
      changed(ctx, a.notebook, doc.name);
      return doc;
    }),
  "notes.save": (ctx, a) =>
    guarded(async () => {
      const r = await filesOf(ctx).save(a.notebook, a.note, a.body, a.baseVersion);
      changed(ctx, a.notebook, a.note, r.version);
      return r;
    }),
  "notes.rename": (ctx, a) =>
    guarded(async () => {
      const f = filesOf(ctx);
      await f.rename(a.notebook, a.note, a.to);
      changed(ctx, a.notebook, a.to);
      return notebook(f, a.notebook);
    }),
  "notes.delete": (ctx, a) =>
    guarded(async () => {
      const f = filesOf(ctx);
      await f.remove(a.notebook, a.note);
      changed(ctx, a.notebook, a.note);
      return notebook(f, a.notebook);
    }),
  "notes.assist": async (ctx, a) => {
    const target = await sideTarget(ctx, a.taskId ?? null, a.model ?? null);
    const text = await guarded(() => assistNote(target, a.action, a.text));
    return { text, model: `${target.provider.id}/${target.model.id}` };
  },
  "notes.organise": async (ctx, a) => {
    const { repos } = services(ctx);
    const task = repos.tasks.get(a.taskId);
    if (!task) throw new OpError("not_found", `there is no task "${a.taskId}"`);
    const entries = repos.entries.latest(a.taskId, ORGANISE_ENTRIES);
    if (!entries.some((e) => e.role === "user" || e.role === "assistant")) {
      throw new OpError("invalid_args", "the conversation is empty: nothing to organise");
    }
    const f = filesOf(ctx);
    // The notebook must exist before the model is asked (no wasted request).
    await guarded(() => f.listNotes(a.notebook));
    const target = await sideTarget(ctx, a.taskId, null);
    const body = await guarded(() => organiseConversation(target, task.title, entries));
    const title = body.match(/^\s{0,3}#\s+(.+)$/m)?.[1] ?? "";
    const name = noteNameFrom(title) ?? noteNameFrom(task.title) ?? "Conversation notes";
    const doc = await guarded(() =>
      f.create(a.notebook, name, body.slice(0, NOTES_LIMITS.bodyChars))
    );
    changed(ctx, a.notebook, doc.name);
    return doc;
  },
};
