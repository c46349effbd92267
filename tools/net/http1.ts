/**
 * A small HTTP/1.1 client for plain `http://` POSTs whose answer is streamed: the model
 * requests to a local model server (Ollama, llama.cpp, LM Studio, vLLM) and the mock LLM.
 * Deno's `fetch` costs ~4 ms of lazily loaded code in the first request of a process and
 * ~0.4 ms of Request/Headers/stream objects in each one (issue #15: a headless run's first
 * model call and every turn); this one writes the request on a socket and reads the answer
 * as it comes. HTTPS, proxies and redirects stay with `fetch` (the caller decides).
 * One connection per request, closed after its answer: a loopback connect costs less than
 * what keeping connections would (no pool to expire, nothing left open by a finished run).
 *
 * Strict on what it reads: a status line and headers of at most 64 KB, a body framed by
 * `transfer-encoding: chunked` or `content-length` (or by the end of the connection), no
 * content encoding (none is asked for). Anything else is a clear error, never a guess.
 */

const MAX_HEAD = 64 * 1024;
const READ_SIZE = 64 * 1024;

export interface Http1Response {
  status: number;
  statusText: string;
  /** Lower-case names; a repeated header keeps its last value. */
  headers: Map<string, string>;
  /** The body as it arrives (read it once). */
  body: Http1Body;
  /** The whole body as text (for error answers). */
  text(): Promise<string>;
}

export interface Http1Body {
  getReader(): {
    read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }>;
    /** Stops reading and closes the connection. */
    cancel(): Promise<void>;
    releaseLock(): void;
  };
}

export class Http1Error extends Error {
  override name = "Http1Error";
}

const enc = new TextEncoder();

/**
 * POSTs `body` to `url` (http: only) and resolves when the answer's head has arrived. The
 * connection closes when the body has been read to its end, on `cancel()`, on an error
 * and when `signal` aborts (a pending read then fails with the abort reason).
 */
export async function http1Post(
  url: URL,
  headers: Record<string, string>,
  body: Uint8Array,
  signal: AbortSignal,
): Promise<Http1Response> {
  if (url.protocol !== "http:") {
    throw new Http1Error(`http1Post is for http: URLs, not ${url.protocol}`);
  }
  signal.throwIfAborted();
  // Validated before connecting: a bad header never reaches the socket.
  const head = enc.encode(requestHead(url, headers, body.length));
  const request = new Uint8Array(head.length + body.length);
  request.set(head);
  request.set(body, head.length);
  const conn = await connect(url, signal);
  return await exchange(conn, request, signal);
}

/** Connects, or fails as soon as `signal` aborts (a host that never answers can take minutes). */
async function connect(url: URL, signal: AbortSignal): Promise<Deno.TcpConn> {
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const port = url.port ? Number(url.port) : 80;
  const pending = Deno.connect({ hostname, port });
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const conn = await Promise.race([pending, aborted]);
    conn.setNoDelay(true);
    return conn;
  } catch (e) {
    // A connection made after the abort is closed when it comes.
    pending.then((c) => c.close(), () => {});
    throw e;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

async function exchange(
  conn: Deno.TcpConn,
  request: Uint8Array,
  signal: AbortSignal,
): Promise<Http1Response> {
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    try {
      conn.close();
    } catch { /* already closed */ }
  };
  const onAbort = () => close();
  signal.addEventListener("abort", onAbort, { once: true });
  const done = () => signal.removeEventListener("abort", onAbort);
  const finish = () => {
    done();
    close();
  };
  const reader = new ByteReader(conn);
  let head: Head | undefined;
  let framing: Framing;
  try {
    try {
      await writeAll(conn, request);
    } catch (e) {
      // A server may answer (413, 400) and close before taking the whole body: its answer
      // is what to report, when there is one.
      if (signal.aborted) throw e;
      head = await readHead(reader).catch(() => Promise.reject(e));
    }
    head ??= await readHead(reader);
    framing = framingOf(head);
  } catch (e) {
    finish();
    signal.throwIfAborted();
    throw e;
  }
  const chunks = bodyChunks(reader, framing);
  const bodyReader = {
    async read() {
      try {
        const next = await chunks.next();
        if (next.done) {
          finish();
          return { done: true as const };
        }
        return { done: false as const, value: next.value };
      } catch (e) {
        finish();
        signal.throwIfAborted();
        throw e;
      }
    },
    cancel() {
      finish();
      return Promise.resolve();
    },
    releaseLock() {},
  };
  let taken = false;
  const answer: Http1Body = {
    getReader() {
      if (taken) throw new Http1Error("the body is already being read");
      taken = true;
      return bodyReader;
    },
  };
  return {
    status: head.status,
    statusText: head.statusText,
    headers: head.headers,
    body: answer,
    async text() {
      const r = answer.getReader();
      const dec = new TextDecoder();
      let out = "";
      for (let n = await r.read(); !n.done; n = await r.read()) {
        out += dec.decode(n.value, { stream: true });
      }
      return out + dec.decode();
    },
  };
}

function requestHead(url: URL, headers: Record<string, string>, length: number): string {
  const lines = [`POST ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
  for (const [k, v] of Object.entries(headers)) {
    // A header that could end the head early or start another is refused, not sent.
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k) || /[\r\n\0]/.test(v)) {
      throw new Http1Error(`invalid request header: ${JSON.stringify(k)}`);
    }
    const name = k.toLowerCase();
    if (
      name === "host" || name === "content-length" || name === "connection" ||
      name === "transfer-encoding"
    ) continue;
    lines.push(`${k}: ${v}`);
  }
  lines.push(`content-length: ${length}`, "connection: close", "", "");
  return lines.join("\r\n");
}

async function writeAll(conn: Deno.TcpConn, bytes: Uint8Array): Promise<void> {
  let at = 0;
  while (at < bytes.length) at += await conn.write(bytes.subarray(at));
}

/** Buffered reads from the socket: lines for the head, bytes for the body. */
class ByteReader {
  private buf = new Uint8Array(0);
  private pos = 0;
  constructor(private conn: Deno.TcpConn) {}

  /** More bytes into the buffer; false at the end of the connection. */
  async fill(): Promise<boolean> {
    const chunk = new Uint8Array(READ_SIZE);
    const n = await this.conn.read(chunk);
    if (n === null) return false;
    const rest = this.buf.subarray(this.pos);
    // Usually nothing is left over: the read is the buffer, no copy.
    if (rest.length === 0) this.buf = chunk.subarray(0, n);
    else {
      const next = new Uint8Array(rest.length + n);
      next.set(rest);
      next.set(chunk.subarray(0, n), rest.length);
      this.buf = next;
    }
    this.pos = 0;
    return true;
  }

  available(): number {
    return this.buf.length - this.pos;
  }

  /** A line without its CRLF, or null at the end of the connection; at most `max` bytes. */
  async line(max: number): Promise<string | null> {
    while (true) {
      const i = this.buf.indexOf(10, this.pos);
      if (i >= 0) {
        if (i - this.pos > max) throw new Http1Error("a line of the answer is too long");
        const end = i > this.pos && this.buf[i - 1] === 13 ? i - 1 : i;
        const text = latin1(this.buf.subarray(this.pos, end));
        this.pos = i + 1;
        return text;
      }
      if (this.available() > max) throw new Http1Error("a line of the answer is too long");
      if (!(await this.fill())) return null;
    }
  }

  /** Up to `max` buffered bytes (reading more first when none are), or null at the end. */
  async take(max: number): Promise<Uint8Array | null> {
    if (this.available() === 0 && !(await this.fill())) return null;
    const n = Math.min(max, this.available());
    // A view: every fill makes a new buffer, so the bytes handed out never change.
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

/** Bytes as Latin-1 text (a header's bytes, one character each). */
function latin1(b: Uint8Array): string {
  let out = "";
  for (let i = 0; i < b.length; i += 4096) out += String.fromCharCode(...b.subarray(i, i + 4096));
  return out;
}

interface Head {
  status: number;
  statusText: string;
  headers: Map<string, string>;
}

async function readHead(r: ByteReader): Promise<Head> {
  while (true) {
    let size = 0;
    const status = await r.line(MAX_HEAD);
    if (status === null) throw new Http1Error("the connection closed before an answer");
    const m = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/.exec(status);
    if (!m) throw new Http1Error(`not an HTTP/1.x answer: ${JSON.stringify(status.slice(0, 80))}`);
    const headers = new Map<string, string>();
    while (true) {
      const line = await r.line(MAX_HEAD);
      if (line === null) throw new Http1Error("the connection closed inside the answer's head");
      size += line.length + 2;
      if (size > MAX_HEAD) throw new Http1Error("the answer's head is larger than 64 KB");
      if (line === "") break;
      const colon = line.indexOf(":");
      if (colon <= 0) {
        throw new Http1Error(`malformed header line: ${JSON.stringify(line.slice(0, 80))}`);
      }
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const code = Number(m[2]);
    // An interim answer (100 Continue, 103 Early Hints): the real one follows.
    if (code >= 100 && code < 200) continue;
    return { status: code, statusText: m[3] ?? "", headers };
  }
}

type Framing = { kind: "chunked" } | { kind: "length"; length: number } | { kind: "close" };

function framingOf(head: Head): Framing {
  const coding = head.headers.get("content-encoding");
  if (coding && coding.toLowerCase() !== "identity") {
    throw new Http1Error(`the answer is ${coding}-encoded (none was asked for)`);
  }
  const te = head.headers.get("transfer-encoding");
  if (te !== undefined) {
    if (te.toLowerCase() !== "chunked") {
      throw new Http1Error(`unsupported transfer-encoding: ${te}`);
    }
    return { kind: "chunked" };
  }
  const cl = head.headers.get("content-length");
  if (cl !== undefined) {
    if (!/^\d{1,15}$/.test(cl)) throw new Http1Error(`malformed content-length: ${cl}`);
    return { kind: "length", length: Number(cl) };
  }
  if (head.status === 204 || head.status === 304) return { kind: "length", length: 0 };
  return { kind: "close" };
}

async function* bodyChunks(r: ByteReader, f: Framing): AsyncGenerator<Uint8Array> {
  if (f.kind === "close") {
    for (let b = await r.take(READ_SIZE); b; b = await r.take(READ_SIZE)) yield b;
    return;
  }
  if (f.kind === "length") {
    let left = f.length;
    while (left > 0) {
      const b = await r.take(left);
      if (!b) throw new Http1Error("the connection closed before the end of the answer");
      left -= b.length;
      yield b;
    }
    return;
  }
  while (true) {
    const sizeLine = await r.line(1024);
    if (sizeLine === null) {
      throw new Http1Error("the connection closed before the end of the answer");
    }
    const hex = sizeLine.split(";")[0].trim();
    if (!/^[0-9a-fA-F]{1,8}$/.test(hex)) {
      throw new Http1Error(`malformed chunk size: ${JSON.stringify(sizeLine.slice(0, 40))}`);
    }
    let left = parseInt(hex, 16);
    if (left === 0) {
      // Trailers, if any, up to the empty line.
      for (let n = 0;; n++) {
        const t = await r.line(MAX_HEAD);
        if (t === null) throw new Http1Error("the connection closed inside the answer's trailers");
        if (t === "") return;
        if (n > 100) throw new Http1Error("too many trailer lines");
      }
    }
    while (left > 0) {
      const b = await r.take(left);
      if (!b) throw new Http1Error("the connection closed inside a chunk");
      left -= b.length;
      yield b;
    }
    const end = await r.line(2);
    if (end !== "") throw new Http1Error("a chunk does not end with CRLF");
  }
}
