/** HTTP helpers shared by the web tools: capped body reads, text detection, decoding. */

export const USER_AGENT = "Mozilla/5.0 (compatible; ReinAgent/0.1; +local coding agent)";

/** Reads at most `max` bytes of the body, then cancels the rest. */
export async function readCapped(
  res: Response,
  max: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!res.body) return { bytes: new Uint8Array(0), truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.length > max) {
        chunks.push(value.subarray(0, max - size));
        size = max;
        truncated = true;
        break;
      }
      chunks.push(value);
      size += value.length;
    }
  } finally {
    if (truncated) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { bytes, truncated };
}

/** The media type without parameters, lower-case ("" when missing). */
export const mediaType = (contentType: string | null): string =>
  (contentType ?? "").split(";")[0].trim().toLowerCase();

const TEXT_APP =
  /^application\/(json|xml|javascript|ecmascript|x-javascript|xhtml\+xml|x-sh|x-shellscript|sql|graphql|toml|yaml|x-yaml|x-tex|x-httpd-php|x-python|x-ndjson|csv|markdown|x-www-form-urlencoded|[\w.+-]+\+(json|xml))$/;

/** True for text types, false for binary ones, null when the header gives no media type. */
export function isTextType(contentType: string | null): boolean | null {
  const t = mediaType(contentType);
  if (!t) return null;
  return t.startsWith("text/") || TEXT_APP.test(t) || t === "image/svg+xml";
}

/** A NUL byte in the first 8 KB means binary (same rule as read_file). */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8000);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Decodes with the header's charset, else an HTML `<meta charset>`, else UTF-8. */
export function decodeText(bytes: Uint8Array, contentType: string | null): string {
  let charset = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  if (!charset) {
    const head = new TextDecoder("latin1").decode(bytes.subarray(0, 2048));
    charset = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? "utf-8");
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  return decoder.decode(bytes).replace(/^\ufeff/, "");
}

/** Cuts `text` to at most `max` UTF-8 bytes on a character boundary. */
export function capUtf8(text: string, max: number): { text: string; cut: boolean } {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= max) return { text, cut: false };
  let end = max;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return { text: new TextDecoder().decode(bytes.subarray(0, end)), cut: true };
}

/** Combines the run's signal with a timeout; call `clear()` when done (no timer left behind). */
export function withTimeout(run: AbortSignal, ms: number) {
  const ctl = new AbortController();
  let fired = false;
  const timer = setTimeout(() => {
    fired = true;
    ctl.abort(new DOMException(`timed out after ${ms} ms`, "TimeoutError"));
  }, ms);
  return {
    signal: AbortSignal.any([run, ctl.signal]),
    timedOut: () => fired && !run.aborted,
    clear: () => clearTimeout(timer),
  };
}

/** A message for a failed request, written for the model. */
export function describeFetchError(
  e: unknown,
  what: string,
  run: AbortSignal,
  timedOut: boolean,
  ms: number,
): string {
  if (timedOut) return `Timed out after ${ms / 1000} s ${what}.`;
  if (run.aborted) return `Stopped ${what}: the run was aborted.`;
  const err = e as Error;
  const cause = err?.cause instanceof Error ? `: ${err.cause.message}` : "";
  return `Network error ${what}: ${err?.message ?? String(e)}${cause}`;
}
