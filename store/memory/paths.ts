/**
 * Where memories live: `<data dir>/memory/global/` and `<data dir>/memory/projects/<first
 * 16 hex of sha256(project path)>/` (so a project's path never becomes a file path),
 * one `<id>.md` per memory. Ids are checked against {@link MEMORY_ID} before any path is
 * built from them, so no id reaches outside its bucket.
 */
import { sha256Hex } from "../../lib/sha256.ts";
import { isAbsolute, join, resolve } from "../../lib/path.ts";
import { MEMORY_ID, type MemoryScope } from "../../protocol/memory.ts";

export interface Bucket {
  scope: MemoryScope;
  /** The project folder ("project" buckets), normalised; null for "global". */
  projectPath: string | null;
  /** `global` or `projects/<hash>`: the bucket's key in the index and the trash. */
  key: string;
  dir: string;
}

export const memoryRoot = (home: string) => join(home, "memory");

export function projectHash(projectPath: string): string {
  return sha256Hex(projectPath).slice(0, 16);
}

/** The bucket of a scope; throws for a project bucket without an absolute path. */
export function bucketOf(root: string, scope: MemoryScope, projectPath?: string | null): Bucket {
  if (scope === "global") {
    return { scope, projectPath: null, key: "global", dir: join(root, "global") };
  }
  if (!projectPath || !isAbsolute(projectPath) || projectPath.includes("\0")) {
    throw new MemoryError("invalid", "a project memory needs the project's absolute path");
  }
  const path = resolve(projectPath).replace(/(.)\/+$/, "$1");
  const key = `projects/${projectHash(path)}`;
  return { scope, projectPath: path, key, dir: join(root, key) };
}

/** The file of memory `id` in `bucket`; throws for an id that is not a plain name. */
export function memoryFile(bucket: Bucket, id: string): string {
  if (!MEMORY_ID.test(id)) {
    throw new MemoryError(
      "invalid",
      `"${id.slice(0, 80)}" is not a memory id (lower-case letters, digits and dashes, at most 64)`,
    );
  }
  return join(bucket.dir, `${id}.md`);
}

export type MemoryErrorCode = "invalid" | "not_found" | "exists" | "corrupt" | "full" | "refused";

/** A refusal with a reason written for the user and the model alike. */
export class MemoryError extends Error {
  constructor(readonly code: MemoryErrorCode, message: string) {
    super(message);
  }
}
