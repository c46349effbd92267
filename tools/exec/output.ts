/**
 * Output capture for shell commands: decodes each stream as UTF-8 in stream mode (a
 * character split across chunks is joined; invalid bytes become U+FFFD), merges the
 * streams in arrival order and keeps only the head and the tail of huge outputs.
 */

/** Bytes kept from the start of the output. */
export const HEAD_BYTES = 10 * 1024;
/** Bytes kept from the end of the output. */
export const TAIL_BYTES = 20 * 1024;

/** Length of `s` in UTF-8 bytes (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** The longest prefix of `s` of at most `max` UTF-8 bytes (never splits a character). */
export function utf8Head(s: string, max: number): string {
  let n = 0;
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length &&
      (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const len = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (n + len > max) break;
    n += len;
    i += pair ? 2 : 1;
  }
  return s.slice(0, i);
}

/** The longest suffix of `s` of at most `max` UTF-8 bytes (never splits a character). */
export function utf8Tail(s: string, max: number): string {
  let n = 0;
  let i = s.length;
  while (i > 0) {
    const c = s.charCodeAt(i - 1);
    const pair = (c & 0xfc00) === 0xdc00 && i >= 2 &&
      (s.charCodeAt(i - 2) & 0xfc00) === 0xd800;
    const len = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (n + len > max) break;
    n += len;
    i -= pair ? 2 : 1;
  }
  return s.slice(i);
}

/** How far a cut may move to land on a line boundary. */
const LINE_SLACK = 1024;

/**
 * Merged output of a command, capped at {@link HEAD_BYTES} + {@link TAIL_BYTES}.
 * Memory stays bounded however much the command prints.
 */
export class OutputBuffer {
  /** Total UTF-8 bytes pushed. */
  total = 0;
  private head = "";
  private headBytes = 0;
  private headFull = false;
  private tail: string[] = [];
  private tailLens: number[] = [];
  private tailBytes = 0;

  constructor(readonly headMax = HEAD_BYTES, readonly tailMax = TAIL_BYTES) {}

  push(text: string): void {
    if (!text) return;
    let n = utf8Length(text);
    this.total += n;
    if (!this.headFull) {
      const room = this.headMax - this.headBytes;
      if (n <= room) {
        this.head += text;
        this.headBytes += n;
        return;
      }
      const part = utf8Head(text, room);
      this.head += part;
      this.headBytes += utf8Length(part);
      this.headFull = true;
      text = text.slice(part.length);
      n = utf8Length(text);
    }
    this.tail.push(text);
    this.tailLens.push(n);
    this.tailBytes += n;
    while (this.tail.length > 1 && this.tailBytes - this.tailLens[0] >= this.tailMax) {
      this.tailBytes -= this.tailLens.shift()!;
      this.tail.shift();
    }
  }

  /** The kept text, with a `[… N bytes omitted …]` marker when something was cut. */
  result(): { text: string; truncated: boolean; omittedBytes: number; totalBytes: number } {
    let tail = this.tail.join("");
    if (this.total <= this.headMax + this.tailMax) {
      return { text: this.head + tail, truncated: false, omittedBytes: 0, totalBytes: this.total };
    }
    let head = this.head;
    tail = utf8Tail(tail, this.tailMax);
    // Prefer whole lines at the cut when a line break is near.
    const nl = head.lastIndexOf("\n");
    if (nl >= 0 && utf8Length(head.slice(nl + 1)) <= LINE_SLACK) head = head.slice(0, nl + 1);
    const tnl = tail.indexOf("\n");
    if (tnl >= 0 && utf8Length(tail.slice(0, tnl + 1)) <= LINE_SLACK) tail = tail.slice(tnl + 1);
    const omitted = this.total - utf8Length(head) - utf8Length(tail);
    const sep = head.endsWith("\n") || head === "" ? "" : "\n";
    return {
      text: `${head}${sep}[… ${omitted} bytes omitted …]\n${tail}`,
      truncated: true,
      omittedBytes: omitted,
      totalBytes: this.total,
    };
  }
}

/**
 * Reads a byte stream to the end, decoding UTF-8 in stream mode, and hands each piece
 * of text to `sink` as it arrives. `cancel()` stops early (e.g. when a background
 * process keeps the pipe open after the command exited).
 */
export function pumpText(
  stream: ReadableStream<Uint8Array>,
  sink: (text: string) => void,
): { done: Promise<void>; cancel: () => void } {
  const reader = stream.getReader();
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const done = (async () => {
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        if (text) sink(text);
      }
    } catch { /* cancelled or the pipe broke: keep what was read */ }
    const rest = decoder.decode(); // flush: an incomplete trailing sequence → U+FFFD
    if (rest) sink(rest);
  })();
  return { done, cancel: () => void reader.cancel().catch(() => {}) };
}
