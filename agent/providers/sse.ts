/**
 * Server-Sent Events parser shared by the fetch-based adapters. Handles events split
 * across chunks, CRLF/CR line ends, comments, multi-line data and a stream that ends
 * without a final blank line or `[DONE]`.
 */

export interface SseEvent {
  event: string;
  data: string;
}

export async function* parseSse(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buf = "";
  let event = "";
  let data: string[] = [];
  const lines = function* (final: boolean): Generator<string> {
    let i: number;
    while ((i = buf.search(/\r\n|\r|\n/)) >= 0) {
      // A lone \r at the very end may be the first half of \r\n: wait for more.
      if (buf[i] === "\r" && i === buf.length - 1 && !final) return;
      const len = buf.startsWith("\r\n", i) ? 2 : 1;
      const line = buf.slice(0, i);
      buf = buf.slice(i + len);
      yield line;
    }
    if (final && buf.length) {
      const line = buf;
      buf = "";
      yield line;
    }
  };
  const take = (line: string): SseEvent | null => {
    if (line === "") {
      if (data.length === 0) {
        event = "";
        return null;
      }
      const ev = { event: event || "message", data: data.join("\n") };
      event = "";
      data = [];
      return ev;
    }
    if (line.startsWith(":")) return null; // comment / keep-alive
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    return null;
  };
  const reader = body.getReader();
  let finished = false;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) {
        finished = true;
        break;
      }
      buf += decoder.decode(value, { stream: true });
      for (const line of lines(false)) {
        const ev = take(line);
        if (ev) yield ev;
      }
    }
    buf += decoder.decode();
    for (const line of lines(true)) {
      const ev = take(line);
      if (ev) yield ev;
    }
    const last = take(""); // flush an event not followed by a blank line
    if (last) yield last;
  } finally {
    // The consumer stopped early: cancel so the connection is released.
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
