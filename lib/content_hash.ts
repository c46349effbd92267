/**
 * SHA-256 of file contents (checkpoints, the stat index, turn changes). Native hashing is
 * ~9× faster than lib/sha256.ts (a 20 000-file first snapshot reads ~140 MB), but
 * `node:crypto` costs ~40 ms and ~8 MB to import: it is loaded when content is first
 * hashed in bulk (`loadNativeHash` before a workspace scan) or when a large input comes
 * along, never at start. Both give the same hex, so which one ran never shows.
 * Async callers use `contentHash` (or await `hashReadyFor` before a sync put), so a large
 * file is never hashed by the slow one.
 */
import { sha256Hex } from "./sha256.ts";

/** Inputs from this size start loading the native hasher (below, JS costs < 1 ms). */
const NATIVE_FROM_BYTES = 64 * 1024;

let native: ((bytes: Uint8Array) => string) | null = null;
let loading: Promise<void> | null = null;

/** Loads the native hasher (once; a failed load leaves the JS one in use). */
export function loadNativeHash(): Promise<void> {
  loading ??= import("node:crypto").then(
    ({ createHash }) => {
      native = (bytes) => createHash("sha256").update(bytes).digest("hex");
    },
    () => {},
  );
  return loading;
}

/** Resolves when hashing `size` bytes will be native if that matters (large inputs). */
export function hashReadyFor(size: number): Promise<void> {
  return native || size < NATIVE_FROM_BYTES ? Promise.resolve() : loadNativeHash();
}

/** `contentHashHex`, after loading the native hasher when `bytes` is large. */
export async function contentHash(bytes: Uint8Array): Promise<string> {
  await hashReadyFor(bytes.length);
  return contentHashHex(bytes);
}

/** The SHA-256 of `bytes` as 64 lowercase hex digits. */
export function contentHashHex(bytes: Uint8Array): string {
  if (native) return native(bytes);
  if (bytes.length >= NATIVE_FROM_BYTES) void loadNativeHash();
  return sha256Hex(bytes);
}

/** Whether the native hasher is in use (tests, the startup guard). */
export function nativeHashLoaded(): boolean {
  return native !== null;
}
