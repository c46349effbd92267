/** File stamps (for stale-read checks); content hashes are lib/content_hash.ts. */
import type { FileStamp } from "./types.ts";

export async function stampOf(abs: string): Promise<FileStamp> {
  const st = await Deno.stat(abs);
  return { abs, mtimeMs: st.mtime?.getTime() ?? null, size: st.size };
}
