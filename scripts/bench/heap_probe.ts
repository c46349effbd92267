/**
 * The soak's leak probe: a server started with `--inspect` is asked, over the Chrome
 * DevTools Protocol, to collect all garbage and report its heap. The RSS of a 20-second
 * soak saws with the collector (±15 MB) and says little about a leak; the heap after a
 * full collection does, in KB per task (this is how the retained hook sessions, pending
 * idle timeouts and dead ring events were found).
 */

/** A free loopback port for the inspector (bound, read and released). */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = l.addr as Deno.NetAddr;
  l.close();
  return port;
}

export interface HeapProbe {
  /** The main isolate's heap in use after two full collections, in MB. */
  heapAfterGcMb(): Promise<number>;
  close(): void;
}

/** Connects to the inspector on `port` (retried while the server starts). */
export async function heapProbe(port: number, timeoutMs = 10_000): Promise<HeapProbe> {
  const end = Date.now() + timeoutMs;
  let url: string | undefined;
  while (!url) {
    try {
      const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
      url = list[0]?.webSocketDebuggerUrl;
    } catch {
      // not listening yet
    }
    if (!url) {
      if (Date.now() > end) throw new Error(`no inspector on port ${port}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const ws = new WebSocket(url);
  await new Promise((ok, fail) => {
    ws.onopen = ok;
    ws.onerror = () => fail(new Error(`cannot connect to the inspector at ${url}`));
  });
  let nextId = 0;
  const pending = new Map<number, (m: { result?: unknown; error?: unknown }) => void>();
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    pending.get(m.id)?.(m);
    pending.delete(m.id);
  };
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((ok, fail) => {
      const id = ++nextId;
      pending.set(id, (m) => m.error ? fail(new Error(JSON.stringify(m.error))) : ok(m.result));
      ws.send(JSON.stringify({ id, method, params }));
    });
  return {
    async heapAfterGcMb() {
      // Twice: the first collection's finalizers may free more.
      await send("HeapProfiler.collectGarbage");
      await send("HeapProfiler.collectGarbage");
      const r = await send("Runtime.evaluate", {
        expression: "Deno.memoryUsage().heapUsed",
        returnByValue: true,
      }) as { result: { value: number } };
      return r.result.value / 1024 / 1024;
    },
    close: () => ws.close(),
  };
}
