/**
 * Runs ops in-process against a real store in a temporary home: validation, handler,
 * typed errors and published events, exactly as `/ws` does, without a socket.
 */
import { Store } from "../../store/store.ts";
import { EventHub, type HubClient } from "../../server/sessions/hub.ts";
import { runOp } from "../../server/ops/dispatch.ts";
import { SafetyLog } from "../../server/sessions/safety.ts";
import type { OpContext } from "../../server/ops/context.ts";
import type { EvtMsg, ProtocolError } from "../../protocol/index.ts";

export interface OpHarness {
  home: string;
  store: Store;
  hub: EventHub;
  /** Events delivered to this harness's client (flushed by `events()`). */
  events(): EvtMsg[];
  topics: Set<string>;
  // deno-lint-ignore no-explicit-any
  op<T = any>(op: string, args?: unknown): Promise<T>;
  /** Runs an op that must fail; returns its error. */
  fail(op: string, args?: unknown): Promise<ProtocolError>;
  /** The raw outcome (for checking that nothing secret is in it). */
  raw(op: string, args?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

export async function opHarness(opts: { home?: string } = {}): Promise<OpHarness> {
  const home = opts.home ?? await Deno.makeTempDir({ prefix: "ra-ops-" });
  const store = new Store(`${home}/reinagent.db`);
  const hub = new EventHub();
  const delivered: EvtMsg[] = [];
  const client: HubClient = {
    id: "test",
    topics: new Set(["tasks"]),
    deliver: (evs) => void delivered.push(...evs),
  };
  hub.add(client);
  // Services the provider ops do not use are absent (null), as when the store is down.
  const ctx = {
    version: "test",
    home,
    store,
    hub,
    tasks: null,
    runs: null,
    safety: new SafetyLog(hub, store.repos?.kv ?? null),
    client,
  } as unknown as OpContext;
  return {
    home,
    store,
    hub,
    topics: client.topics,
    events() {
      hub.flush();
      return delivered.splice(0);
    },
    async op(op, args = {}) {
      const out = await runOp(ctx, op, args);
      if (!out.ok) throw new Error(`${op} failed: ${out.error.code}: ${out.error.message}`);
      // deno-lint-ignore no-explicit-any
      return out.result as any;
    },
    async fail(op, args = {}) {
      const out = await runOp(ctx, op, args);
      if (out.ok) throw new Error(`${op} was expected to fail: ${JSON.stringify(out.result)}`);
      return out.error;
    },
    raw: (op, args = {}) => runOp(ctx, op, args),
    async close() {
      hub.close();
      store.close();
      if (!opts.home) await Deno.remove(home, { recursive: true });
    },
  };
}
