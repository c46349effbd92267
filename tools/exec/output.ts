/**
 * Output capture for shell commands, in bytes: a command may print gigabytes, so
 * nothing here turns every chunk into a JS string. Each stream is read into one
 * reused buffer (BYOB) and handed on in pieces that never end inside a UTF-8
 * character; the capture copies them into a fixed head buffer and a fixed tail ring
 * and decodes only the kept bytes at the end. Streams stay in arrival order, and
 * which stream each kept byte came from is recorded for the UI (stderr is marked).
 */

/** Bytes kept from the start of the output. */
export const HEAD_BYTES = 10 * 1024;
/** Bytes kept from the end of the output. */
export const TAIL_BYTES = 20 * 1024;
/** Read size of the pumps (Deno's own pipe chunk size). */
export const CHUNK_BYTES = 64 * 1024;

export type { StreamName } from "../types.ts";
import type { StreamName } from "../types.ts";
import type { ExecSegment } from "../../protocol/tool_details.ts";
/** A kept run of one stream's text, or the place where bytes were left out. */
export type Segment = ExecSegment;

/** How far a cut may move to land on a line boundary. */
const LINE_SLACK = 1024;

const isCont = (b: number) => (b & 0xc0) === 0x80;

/**
 * Where the complete UTF-8 characters of `b[0..len)` end: an unfinished multi-byte
 * sequence at the end is left for the next chunk. Invalid bytes count as complete
 * (they decode to U+FFFD wherever the cut is).
 */
export function completeEnd(b: Uint8Array, len: number): number {
  for (let i = len - 1; i >= 0 && i >= len - 4; i--) {
    const c = b[i];
    if (isCont(c)) continue;
    const need = c >= 0xf0 && c <= 0xf7 ? 4 : c >= 0xe0 ? (c < 0xf0 ? 3 : 1) : c >= 0xc0 ? 2 : 1;
    return len - i < need ? i : len;
  }
  return len;
}

/** Moves `i` forward past continuation bytes (at most 3): a character's start. */
function charStart(b: Uint8Array, i: number, end: number): number {
  for (let k = 0; k < 3 && i < end && isCont(b[i]); k++) i++;
  return i;
}

interface Mark {
  /** Absolute byte offset where `stream` starts. */
  at: number;
  stream: StreamName;
}

/**
 * Merged output of a command, capped at {@link HEAD_BYTES} + {@link TAIL_BYTES}.
 * Memory is fixed up front however much the command prints; `push` only copies.
 */
export class OutputBuffer {
  /** Total bytes pushed. */
  total = 0;
  /** Bytes pushed per stream. */
  readonly bytes: Record<StreamName, number> = { out: 0, err: 0 };
  private head: Uint8Array;
  private headLen = 0;
  private ring: Uint8Array;
  /** Stream switches: every one inside the head, and those the tail still covers. */
  private marks: Mark[] = [];
  private headMarks = 0;
  private firstTailMark = 0;

  constructor(readonly headMax = HEAD_BYTES, readonly tailMax = TAIL_BYTES) {
    this.head = new Uint8Array(headMax);
    this.ring = new Uint8Array(tailMax);
  }

  /** Copies `chunk` (it may be reused by the caller afterwards). */
  push(chunk: Uint8Array, stream: StreamName = "out"): void {
    const n = chunk.length;
    if (!n) return;
    const last = this.marks[this.marks.length - 1];
    if (last?.stream !== stream) {
      this.marks.push({ at: this.total, stream });
      if (this.total < this.headMax) this.headMarks = this.marks.length;
    }
    this.bytes[stream] += n;
    let from = 0;
    if (this.headLen < this.headMax) {
      from = Math.min(n, this.headMax - this.headLen);
      this.head.set(chunk.subarray(0, from), this.headLen);
      this.headLen += from;
    }
    if (from === n) {
      this.total += n;
      return;
    }
    // Only the last tailMax bytes can survive: copy just those, wrapping around.
    const skip = Math.max(from, n - this.tailMax);
    let pos = (this.total + skip - this.headMax) % this.tailMax;
    this.total += n;
    let src = chunk.subarray(skip);
    while (src.length) {
      const k = Math.min(src.length, this.tailMax - pos);
      this.ring.set(src.subarray(0, k), pos);
      src = src.subarray(k);
      pos = 0;
    }
    this.dropOldMarks();
  }

  /** Forgets stream switches the tail no longer reaches (keeps the one it starts in). */
  private dropOldMarks(): void {
    const tailStart = Math.max(this.headMax, this.total - this.tailMax);
    let i = Math.max(this.firstTailMark, this.headMarks);
    while (i + 1 < this.marks.length && this.marks[i + 1].at <= tailStart) i++;
    this.firstTailMark = i;
    // Compact now and then, so a chatty two-stream command cannot grow the list.
    if (i - this.headMarks > 1024 && i - this.headMarks > this.marks.length / 2) {
      this.marks.splice(this.headMarks, i - this.headMarks);
      this.firstTailMark = this.headMarks;
    }
  }

  /** The tail's bytes, oldest first (at most tailMax). */
  private tailBytes(): Uint8Array {
    const written = this.total - this.headMax;
    const len = Math.min(this.tailMax, Math.max(0, written));
    if (!len) return new Uint8Array(0);
    const from = (written - len) % this.tailMax;
    if (from + len <= this.tailMax) return this.ring.slice(from, from + len);
    const out = new Uint8Array(len);
    out.set(this.ring.subarray(from));
    out.set(this.ring.subarray(0, len - (this.tailMax - from)), this.tailMax - from);
    return out;
  }

  /** Decoded segments of `bytes` (absolute offset `at0`), split at the stream switches. */
  private segmentsOf(bytes: Uint8Array, at0: number): Segment[] {
    const dec = new TextDecoder("utf-8", { fatal: false });
    const out: Segment[] = [];
    const end = at0 + bytes.length;
    for (let i = 0; i < this.marks.length; i++) {
      const m = this.marks[i];
      const next = this.marks[i + 1]?.at ?? Infinity;
      const a = Math.max(m.at, at0), b = Math.min(next, end);
      if (b <= a) continue;
      out.push({ stream: m.stream, text: dec.decode(bytes.subarray(a - at0, b - at0)) });
    }
    return out;
  }

  /**
   * The kept text, with a `[… N bytes omitted …]` marker when something was cut, and
   * the same as segments per stream (the marker as `{omitted}`).
   */
  result(): {
    text: string;
    truncated: boolean;
    omittedBytes: number;
    totalBytes: number;
    segments: Segment[];
  } {
    const tail = this.tailBytes();
    const totalBytes = this.total;
    if (this.total <= this.headMax + this.tailMax) {
      const all = new Uint8Array(this.headLen + tail.length);
      all.set(this.head.subarray(0, this.headLen));
      all.set(tail, this.headLen);
      const segments = this.segmentsOf(all, 0);
      return { text: joinText(segments), truncated: false, omittedBytes: 0, totalBytes, segments };
    }
    let h = completeEnd(this.head, this.headMax);
    let t = charStart(tail, 0, tail.length);
    // Prefer whole lines at the cut when a line break is near.
    const nl = this.head.subarray(0, h).lastIndexOf(0x0a);
    if (nl >= 0 && h - (nl + 1) <= LINE_SLACK) h = nl + 1;
    const tnl = tail.indexOf(0x0a, t);
    if (tnl >= 0 && tnl + 1 - t <= LINE_SLACK) t = tnl + 1;
    const omitted = this.total - h - (tail.length - t);
    const headSegs = this.segmentsOf(this.head.subarray(0, h), 0);
    const tailSegs = this.segmentsOf(tail.subarray(t), this.total - tail.length + t);
    const head = joinText(headSegs);
    const sep = head.endsWith("\n") || head === "" ? "" : "\n";
    return {
      text: `${head}${sep}[… ${omitted} bytes omitted …]\n${joinText(tailSegs)}`,
      truncated: true,
      omittedBytes: omitted,
      totalBytes,
      segments: [...headSegs, { omitted }, ...tailSegs],
    };
  }
}

const joinText = (segs: Segment[]) => segs.map((s) => "text" in s ? s.text : "").join("");

/**
 * Reads a byte stream to the end and hands `sink` each piece as it arrives, never
 * ending inside a UTF-8 character (an unfinished one waits for the next read; at the
 * end it is handed on as is and decodes to U+FFFD). The piece is a view of one
 * reused buffer: valid only during the call. `cancel()` stops early (e.g. when a
 * background process keeps the pipe open after the command exited).
 */
export function pumpBytes(
  stream: ReadableStream<Uint8Array>,
  sink: (bytes: Uint8Array) => void,
): { done: Promise<void>; cancel: () => void } {
  let byob: ReadableStreamBYOBReader | null = null;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  try {
    byob = stream.getReader({ mode: "byob" });
  } catch {
    reader = stream.getReader(); // not a byte stream (tests, wrapped streams)
  }
  let buf = new Uint8Array(CHUNK_BYTES);
  let carry = 0;
  // The unfinished character, also kept aside: a last read may take `buf` with it.
  const held = new Uint8Array(4);
  /** `len` bytes at the start of `buf`: hand on the complete part, keep the rest. */
  const emit = (len: number) => {
    const cut = completeEnd(buf, len);
    if (cut > 0) sink(buf.subarray(0, cut));
    buf.copyWithin(0, cut, len);
    carry = len - cut;
    held.set(buf.subarray(0, carry));
  };
  const done = (async () => {
    try {
      while (true) {
        if (byob) {
          const { value, done } = await byob.read(new Uint8Array(buf.buffer, carry));
          if (value) buf = new Uint8Array(value.buffer); // the read transferred our buffer
          if (done || !value) break;
          emit(carry + value.length);
        } else {
          const { value, done } = await reader!.read();
          if (done) break;
          for (let i = 0; i < value.length;) {
            const k = Math.min(value.length - i, buf.length - carry);
            buf.set(value.subarray(i, i + k), carry);
            i += k;
            emit(carry + k);
          }
        }
      }
    } catch { /* cancelled or the pipe broke: keep what was read */ }
    if (carry) sink(held.subarray(0, carry));
  })();
  const cancel = () => void (byob ?? reader)!.cancel().catch(() => {});
  return { done, cancel };
}
