/** Handlers for the ops in `protocol/memory.ts` (the Memory page). */
import {
  type MEMORY_OP_ARGS,
  MEMORY_TOPIC,
  type MemoryBucketView,
  type MemoryItem,
  type MemoryScope,
  type MemorySummary,
} from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import type { OpContext } from "./context.ts";
import type { OpHandlers } from "./types.ts";
import { memoryFilesOf } from "../agent/memory_access.ts";
import type { MemoryFiles } from "../../store/memory/files.ts";
import { type Bucket, MemoryError } from "../../store/memory/paths.ts";
import { readMemorySettings, writeMemorySettings } from "../../store/memory/settings.ts";
import { join } from "../../lib/path.ts";

const defaultProjectDir = (home: string) => join(home, "DefaultProject");

const CODES = {
  invalid: "invalid_args",
  not_found: "not_found",
  exists: "conflict",
  corrupt: "conflict",
  full: "too_large",
  refused: "conflict",
} as const;

/** Runs `fn`; a memory refusal becomes the op error it stands for. */
async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof MemoryError) throw new OpError(CODES[e.code], e.message);
    throw e;
  }
}

const summary = ({ body: _, ...s }: MemoryItem): MemorySummary => s;

function filesOf(ctx: OpContext): { files: MemoryFiles } {
  return { files: memoryFilesOf(ctx.home, ctx.store.repos) };
}

function bucketOf(
  ctx: OpContext,
  a: { scope: MemoryScope; projectPath?: string | null },
): { files: MemoryFiles; b: Bucket } {
  const { files } = filesOf(ctx);
  // No project path = the default project (where tasks without a folder work).
  const projectPath = a.scope === "project" ? a.projectPath ?? defaultProjectDir(ctx.home) : null;
  try {
    return { files, b: files.bucket(a.scope, projectPath) };
  } catch (e) {
    if (e instanceof MemoryError) throw new OpError("invalid_args", e.message);
    throw e;
  }
}

async function view(files: MemoryFiles, b: Bucket): Promise<MemoryBucketView> {
  const { items, problems } = await files.list(b);
  const s = readMemorySettings(files.root);
  return {
    scope: b.scope,
    projectPath: b.projectPath,
    dir: b.dir,
    items: items.map(summary),
    problems: s.error ? [{ file: "settings.json", error: s.error }, ...problems] : problems,
    settings: s.settings,
  };
}

/** Tells every Memory page (other clients too) that a bucket changed. */
function changed(ctx: OpContext, b: Bucket): void {
  ctx.hub.publish(MEMORY_TOPIC, { kind: "changed", scope: b.scope, projectPath: b.projectPath });
}

export const MEMORY_HANDLERS: OpHandlers<keyof typeof MEMORY_OP_ARGS> = {
  "memory.list": (ctx, a) => {
    ctx.client.topics.add(MEMORY_TOPIC);
    const { files, b } = bucketOf(ctx, a);
    return guarded(() => view(files, b));
  },
  "memory.read": (ctx, a) => {
    const { files, b } = bucketOf(ctx, a);
    return guarded(() => files.read(b, a.id));
  },
  "memory.search": (ctx, a) => {
    const { files, b } = bucketOf(ctx, a);
    return guarded(async () => ({
      q: a.q,
      hits: (await files.search(b, a.q)).map((h) => ({
        item: summary(h.item),
        snippet: h.snippet,
      })),
    }));
  },
  "memory.save": (ctx, a) => {
    const { files, b } = bucketOf(ctx, a);
    const fields = { title: a.title, description: a.description, type: a.type, body: a.body };
    // The user wrote it: accepted as it is.
    const opts = { source: "user", unreviewed: false } as const;
    return guarded(async () => {
      const item = a.id
        ? await files.update(b, a.id, fields, opts)
        : await files.create(b, fields, opts);
      changed(ctx, b);
      return { item, bucket: await view(files, b) };
    });
  },
  "memory.accept": (ctx, a) => {
    const { files, b } = bucketOf(ctx, a);
    return guarded(async () => {
      await files.accept(b, a.id);
      changed(ctx, b);
      return view(files, b);
    });
  },
  "memory.delete": (ctx, a) => {
    const { files, b } = bucketOf(ctx, a);
    return guarded(async () => {
      // The user may remove a file that does not parse (it goes to the trash, not away).
      await files.remove(b, a.id, { corruptToo: true });
      changed(ctx, b);
      return view(files, b);
    });
  },
  "memory.wipe": (ctx, a) => {
    const { files, b } = bucketOf(ctx, a);
    return guarded(async () => {
      const r = await files.wipe(b);
      changed(ctx, b);
      return { ...r, bucket: await view(files, b) };
    });
  },
  "memory.setSettings": (ctx, a) =>
    guarded(() => Promise.resolve(writeMemorySettings(filesOf(ctx).files.root, a))),
};
