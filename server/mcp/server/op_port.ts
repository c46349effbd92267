/**
 * The MCP server's way into the workbench: ops run through the same dispatcher as the
 * UI's WebSocket requests (same validation, same safety notices), as one hub client
 * per MCP session. The client hears the `tasks` and `approvals` topics so a
 * `wait_for_task` wakes as soon as a task changes.
 */
import type { ClientInfo, EvtMsg, OpName, OpResults } from "../../../protocol/index.ts";
import type { ServerDeps } from "../../ops/context.ts";
import type { HubClient } from "../../sessions/hub.ts";
import { runOp } from "../../ops/dispatch.ts";

/** An op's error, with its protocol code (`not_found`, `invalid_args`, …). */
export class McpOpError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

export interface OpPort {
  call<K extends OpName>(op: K, args?: unknown): Promise<OpResults[K]>;
  /** Runs `fn` whenever a task or an approval changed; returns the unsubscribe. */
  onChange(fn: () => void): () => void;
  close(): void;
}

const WAKE_TOPICS = new Set(["tasks", "approvals"]);

export function opPort(deps: ServerDeps, info: () => ClientInfo): OpPort {
  const listeners = new Set<() => void>();
  const client: HubClient = {
    id: `mcp-${crypto.randomUUID()}`,
    topics: new Set(WAKE_TOPICS),
    get info() {
      return info();
    },
    deliver(events: EvtMsg[]) {
      if (!events.some((e) => WAKE_TOPICS.has(e.topic))) return;
      for (const fn of listeners) fn();
    },
  };
  deps.hub.add(client);
  return {
    async call<K extends OpName>(op: K, args: unknown = {}) {
      const out = await runOp({ ...deps, client }, op, args);
      // Timelines are not streamed to MCP clients: keep only the wake topics.
      for (const t of client.topics) if (!WAKE_TOPICS.has(t)) client.topics.delete(t);
      if (!out.ok) throw new McpOpError(out.error.code, out.error.message);
      return out.result as OpResults[K];
    },
    onChange(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    close() {
      listeners.clear();
      deps.hub.remove(client);
    },
  };
}
