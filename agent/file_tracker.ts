/**
 * What the agent has read in a task (path → stamp), for the stale-read rule: edits
 * and deletes need a prior read, and the file must not have changed since.
 */
import type { FileStamp } from "../tools/types.ts";

export class FileTracker {
  private seen = new Map<string, FileStamp>();

  record(stamp: FileStamp): void {
    this.seen.set(stamp.abs, stamp);
    if (this.seen.size > 5000) this.seen.delete(this.seen.keys().next().value!); // bound memory
  }

  forget(abs: string): void {
    this.seen.delete(abs);
  }

  /** An error text when `abs` was not read, or changed since it was read; else null. */
  async staleness(abs: string, shown: string, verb: string): Promise<string | null> {
    const known = this.seen.get(abs);
    if (!known) return `You must read ${shown} with read_file before you ${verb} it.`;
    let st: Deno.FileInfo;
    try {
      st = await Deno.stat(abs);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return `File not found: ${shown}`;
      throw e;
    }
    const mtime = st.mtime?.getTime() ?? null;
    if (mtime !== known.mtimeMs || st.size !== known.size) {
      return `${shown} changed since you last read it (someone else edited it). Read it again before you ${verb} it.`;
    }
    return null;
  }
}
