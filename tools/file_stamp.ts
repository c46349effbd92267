/** File stamps (for stale-read checks) and content hashes. */
import { createHash } from "node:crypto";
import type { FileStamp } from "./types.ts";

export async function stampOf(abs: string): Promise<FileStamp> {
  const st = await Deno.stat(abs);
  return { abs, mtimeMs: st.mtime?.getTime() ?? null, size: st.size };
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
