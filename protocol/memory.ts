/**
 * Memory: what the agent keeps between tasks — Markdown files with a
 * frontmatter under `<data dir>/memory/global/` and `<data dir>/memory/projects/<hash>/`
 * (the files are the source of truth; an FTS index follows them). Only memories the
 * user accepted reach the model's reminder; proposals (written by the model's `memory`
 * tool or by post-turn extraction) stay `unreviewed` until the user accepts them.
 *
 * Ops (a bucket is `{scope, projectPath?}`; a "project" bucket without `projectPath` is
 * the default project's, where tasks without a folder work):
 * - `memory.list {scope, projectPath?}` → the bucket: items (no bodies), corrupt files.
 * - `memory.read {scope, projectPath?, id}` → one memory with its body.
 * - `memory.search {scope, projectPath?, q}` → matching memories of the bucket.
 * - `memory.save {scope, projectPath?, id?, title, description, type, body}` → creates
 *   (no id) or replaces one; the user wrote it, so it is accepted.
 * - `memory.accept {scope, projectPath?, id}`, `memory.delete {…, id}` (moved to the trash).
 * - `memory.wipe {scope, projectPath?, confirm: "wipe"}` → every memory of the bucket
 *   moved to the trash.
 * - `memory.setSettings {extraction}` → the memory settings.
 *
 * `memory.list` subscribes the client to the {@link MEMORY_TOPIC} topic.
 */
import { bool, nullable, obj, oneOf, type Schema, str } from "./schema.ts";

/** Pushed when memories change outside the page's own request (extraction, the tool). */
export const MEMORY_TOPIC = "memory";
export interface MemoryEvent {
  kind: "changed";
  scope: MemoryScope;
  projectPath: string | null;
}

export const MEMORY_SCOPES = ["global", "project"] as const;
export type MemoryScope = typeof MEMORY_SCOPES[number];

/** What a memory is about (the kinds Claude Code's memory uses). */
export const MEMORY_TYPES = ["user", "feedback", "project", "reference"] as const;
export type MemoryType = typeof MEMORY_TYPES[number];

/** What the agent's `memory` tool does in one call. */
export const MEMORY_ACTIONS = ["list", "read", "search", "write", "update", "delete"] as const;

/** Who wrote a memory last: the user (page), the model's tool, or post-turn extraction. */
export const MEMORY_SOURCES = ["user", "tool", "tool-user-asked", "extraction"] as const;
export type MemorySource = typeof MEMORY_SOURCES[number];

export const MEMORY_LIMITS = {
  idChars: 64,
  titleChars: 120,
  descriptionChars: 300,
  bodyChars: 8000,
  /** A file bigger than this is reported as corrupt, never read whole. */
  fileBytes: 32 * 1024,
  /** Memories per bucket (writes beyond are refused). */
  perBucket: 500,
  /** Accepted memories per bucket listed in the reminder (most recent first). */
  indexPerBucket: 30,
  /** Characters of the reminder's memory section at most. */
  indexChars: 16_000,
  queryChars: 200,
  searchResults: 20,
  /** Characters of a body shown in a list row. */
  previewChars: 240,
  /** Memories one post-turn extraction may propose. */
  extractPerTurn: 3,
  /** Seconds between two extractions of one task. */
  extractThrottleSec: 30,
} as const;

/** A memory id: its file name without `.md` — lower case, digits and dashes. */
export const MEMORY_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

export interface MemorySummary {
  id: string;
  scope: MemoryScope;
  title: string;
  description: string;
  type: MemoryType;
  /** True until the user accepted it: never in the reminder. */
  unreviewed: boolean;
  source: MemorySource;
  createdAt: string;
  updatedAt: string;
  /** The start of the body (at most {@link MEMORY_LIMITS.previewChars}). */
  preview: string;
}

export interface MemoryItem extends MemorySummary {
  body: string;
}

/** A file of the bucket that is not a valid memory: reported, never overwritten. */
export interface MemoryProblem {
  file: string;
  error: string;
}

export interface MemoryBucketView {
  scope: MemoryScope;
  projectPath: string | null;
  /** The bucket's folder on disk. */
  dir: string;
  items: MemorySummary[];
  problems: MemoryProblem[];
  settings: MemorySettings;
}

export interface MemorySettings {
  /** Post-turn extraction (a hidden side request after a turn); off by default. */
  extraction: boolean;
}

export const DEFAULT_MEMORY_SETTINGS: Readonly<MemorySettings> = Object.freeze({
  extraction: false,
});

export interface MemorySearchHit {
  item: MemorySummary;
  /** Text around the first match. */
  snippet: string;
}

const L = MEMORY_LIMITS;
const bucket = {
  scope: oneOf(MEMORY_SCOPES),
  "projectPath?": nullable(str({ min: 1, max: 4096 })),
};
const memoryId = str({ min: 1, max: L.idChars, pattern: MEMORY_ID });

export const MEMORY_OP_ARGS = {
  "memory.list": obj(bucket),
  "memory.read": obj({ ...bucket, id: memoryId }),
  "memory.search": obj({ ...bucket, q: str({ max: L.queryChars }) }),
  "memory.save": obj({
    ...bucket,
    "id?": memoryId,
    title: str({ min: 1, max: L.titleChars }),
    description: str({ max: L.descriptionChars }),
    type: oneOf(MEMORY_TYPES),
    body: str({ max: L.bodyChars }),
  }),
  "memory.accept": obj({ ...bucket, id: memoryId }),
  "memory.delete": obj({ ...bucket, id: memoryId }),
  "memory.wipe": obj({ ...bucket, confirm: oneOf(["wipe"] as const) }),
  "memory.setSettings": obj({ extraction: bool }),
} satisfies Record<string, Schema>;

export interface MemoryOpResults {
  "memory.list": MemoryBucketView;
  "memory.read": MemoryItem;
  "memory.search": { q: string; hits: MemorySearchHit[] };
  "memory.save": { item: MemoryItem; bucket: MemoryBucketView };
  "memory.accept": MemoryBucketView;
  "memory.delete": MemoryBucketView;
  "memory.wipe": { moved: number; trash: string; bucket: MemoryBucketView };
  "memory.setSettings": MemorySettings;
}
