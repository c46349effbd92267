/** File stamps (for stale-read checks); content hashes are lib/content_hash.ts. */
import type { FileStamp } from "./types.ts";

export function stampOf(abs: string): FileStamp {
  const st = Deno.statSync(abs);
  return { abs, mtimeMs: st.mtime?.getTime() ?? null, size: st.size };
}
