/**
 * The net change of a turn: per file the line diff from its
 * state before the turn (the checkpoint's pre-image) to its state now, at the end of
 * the turn's run — not the sum of the edits, so a file created with 4 lines and then
 * edited is "new +4". Files the turn changed and put back as they were are left out.
 * The version after the turn is kept as a blob too, so `file.diff {turnId}` can show
 * the same net diff later (also after a rewind).
 *
 * @example
 * const changes = await netChanges(rows, workspace, checkpointer, Date.now());
 * changes?.files[0]; // {path: "notes.md", added: 4, removed: 0, created: true, …}
 */
import { type LineDiff, lineDiff } from "../../protocol/diff.ts";
import { contentHash } from "../../lib/content_hash.ts";
import { displayPath } from "../../tools/paths.ts";
import type { CheckpointRow } from "../../store/checkpoints.ts";
import {
  type ChangeNote,
  TURN_CHANGES_MAX_FILES,
  type TurnChanges,
  type TurnFileChange,
} from "../../protocol/index.ts";
import { BLOB_CAP } from "./checkpoints.ts";
import { isGitHash } from "./git_objects.ts";

/** Largest version (bytes) that is diffed line by line; larger ones get no counts. */
export const NET_DIFF_CAP = 4 * 1024 * 1024;

/** Where versions are kept (the checkpoint blobs). */
export interface Blobs {
  /** `near`: the file's path, for a version git keeps (found in its repository). */
  readBlob(hash: string, near?: string): Promise<Uint8Array | null>;
  keepBlob(bytes: Uint8Array): Promise<string>;
}

/** Text of the bytes, or null when they are binary (a NUL byte or invalid UTF-8). */
export function textOf(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

type Now =
  | { kind: "absent" }
  | { kind: "file"; hash: string; bytes: Uint8Array | null }
  | { kind: "other" };

/** The file as it is now (bytes only up to the blob cap). */
async function current(abs: string, recorded: string | null): Promise<Now> {
  let st: Deno.FileInfo;
  try {
    st = await Deno.lstat(abs);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { kind: "absent" };
    throw e;
  }
  if (!st.isFile) return { kind: "other" };
  if (st.size > BLOB_CAP) return { kind: "file", hash: recorded ?? "", bytes: null };
  const bytes = await Deno.readFile(abs);
  return { kind: "file", hash: await contentHash(bytes), bytes };
}

/** Line counts of before → after, or why there are none. */
function counts(
  before: Uint8Array | null,
  after: Uint8Array | null,
): { added: number; removed: number } | ChangeNote {
  const empty = new Uint8Array();
  const a = before ?? empty, b = after ?? empty;
  if (a.length > NET_DIFF_CAP || b.length > NET_DIFF_CAP) return "too_large";
  const ta = textOf(a), tb = textOf(b);
  if (ta === null || tb === null) return "binary";
  const d = lineDiff(ta, tb, { maxLines: 0 });
  return { added: d.added, removed: d.removed };
}

/**
 * The net change of one turn from its checkpoint rows (no files: the turn changed
 * files and put them all back — which is not the same as having no record).
 */
export async function netChanges(
  rows: CheckpointRow[],
  workspace: string,
  blobs: Blobs,
  at: number,
): Promise<TurnChanges> {
  const files: TurnFileChange[] = [];
  let more = 0;
  for (const r of rows) {
    let row = r;
    if (isGitHash(r.preHash)) {
      // Git keeps the version before; a copy of our own lets its diff outlive git's.
      const bytes = await blobs.readBlob(r.preHash, r.path);
      if (bytes) row = { ...r, preHash: await blobs.keepBlob(bytes) };
    }
    const now = await current(row.path, row.postHash);
    const afterHash = now.kind === "file" ? now.hash : now.kind === "other" ? "other" : null;
    const kept = row.skipped === null;
    if (kept && row.preHash === afterHash) continue; // put back as it was
    if (kept && row.preHash === null && now.kind === "absent") continue; // created and deleted
    if (files.length >= TURN_CHANGES_MAX_FILES) {
      more++;
      continue;
    }
    const change: TurnFileChange = {
      path: displayPath(row.path, workspace),
      added: null,
      removed: null,
      created: kept && row.preHash === null,
      deleted: now.kind === "absent",
      before: kept ? row.preHash : null,
      after: now.kind === "file" ? now.hash : null,
    };
    let note: ChangeNote | null = null;
    if (!kept) note = "not_kept";
    else if (now.kind === "other") note = "binary";
    else if (now.kind === "file" && now.bytes === null) note = "too_large";
    else {
      const before = row.preHash ? await blobs.readBlob(row.preHash) : null;
      if (row.preHash && !before) note = "not_kept";
      else {
        const c = counts(before, now.kind === "file" ? now.bytes : null);
        if (typeof c === "string") note = c;
        else Object.assign(change, c);
      }
    }
    if (note) change.note = note;
    // Keep the version after the turn so its net diff can be shown later.
    if (now.kind === "file" && now.bytes) await blobs.keepBlob(now.bytes);
    files.push(change);
  }
  return {
    files,
    added: files.reduce((n, f) => n + (f.added ?? 0), 0),
    removed: files.reduce((n, f) => n + (f.removed ?? 0), 0),
    more,
    at,
  };
}

/** The net diff of one file of a turn, from the kept versions; null when one is gone. */
export async function netDiff(
  f: Pick<TurnFileChange, "before" | "after">,
  blobs: Blobs,
): Promise<LineDiff | null> {
  const read = async (h: string | null) => h === null ? new Uint8Array() : await blobs.readBlob(h);
  const [a, b] = await Promise.all([read(f.before), read(f.after)]);
  if (!a || !b) return null;
  if (a.length > NET_DIFF_CAP || b.length > NET_DIFF_CAP) return null;
  const ta = textOf(a), tb = textOf(b);
  if (ta === null || tb === null) return null;
  return lineDiff(ta, tb);
}
