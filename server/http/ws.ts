/**
 * One WebSocket connection: sends `hello`, answers requests through `runOp`, and
 * receives the hub's events for the topics it subscribed to.
 */
import {
  type ClientInfo,
  type EvtMsg,
  type HelloMsg,
  LIMITS,
  MCP_TOPIC,
  NOTICES_TOPIC,
  parseRequest,
  PROTOCOL_VERSION,
  type ResMsg,
} from "../../protocol/index.ts";
import type { HubClient } from "../sessions/hub.ts";
import type { ServerDeps } from "../ops/context.ts";
import { runOp } from "../ops/dispatch.ts";
import { existingTerminals } from "../terminal/manager.ts";

/** A client that falls this far behind is dropped; it resumes or re-snapshots. */
const MAX_BUFFERED = 16 * 1024 * 1024;

export function attachSocket(socket: WebSocket, deps: ServerDeps, info?: ClientInfo): void {
  const client: HubClient = {
    id: crypto.randomUUID(),
    topics: new Set(["tasks", "approvals", NOTICES_TOPIC, MCP_TOPIC]),
    info,
    since: Date.now(),
    disconnect(code, reason) {
      if (socket.readyState <= WebSocket.OPEN) socket.close(code, reason);
    },
    deliver(events: EvtMsg[], frames?: string[]) {
      if (socket.readyState !== WebSocket.OPEN) return;
      if (socket.bufferedAmount > MAX_BUFFERED) {
        socket.close(4008, "client too slow");
        return;
      }
      // One frame per event keeps the client simple; batches arrive in seq order.
      events.forEach((e, i) => socket.send(frames?.[i] ?? JSON.stringify(e)));
    },
    raw: {
      send(frame: string) {
        if (socket.readyState === WebSocket.OPEN) socket.send(frame);
      },
      buffered: () => socket.bufferedAmount,
    },
  };
  const send = (msg: ResMsg | HelloMsg) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
  };

  socket.onopen = () => {
    deps.hub.add(client);
    send({
      t: "hello",
      epoch: deps.hub.epoch,
      seq: deps.hub.lastSeq,
      version: deps.version,
      protocol: PROTOCOL_VERSION,
      store: deps.store.health,
    });
  };
  socket.onmessage = async (ev) => {
    if (typeof ev.data !== "string") {
      send({
        t: "res",
        id: 0,
        ok: false,
        error: { code: "bad_request", message: "binary frames are not accepted" },
      });
      return;
    }
    if (ev.data.length > LIMITS.frameBytes) {
      send({
        t: "res",
        id: 0,
        ok: false,
        error: { code: "too_large", message: `frame exceeds ${LIMITS.frameBytes} bytes` },
      });
      return;
    }
    const parsed = parseRequest(ev.data);
    if ("error" in parsed) {
      send({ t: "res", id: parsed.id, ok: false, error: parsed.error });
      return;
    }
    const { id, op, args } = parsed.req;
    const out = await runOp({ ...deps, client }, op, args);
    send(
      out.ok
        ? { t: "res", id, ok: true, result: out.result }
        : { t: "res", id, ok: false, error: out.error },
    );
  };
  const gone = () => {
    deps.hub.remove(client);
    existingTerminals(deps)?.dropViewer(client.id);
  };
  socket.onclose = gone;
  socket.onerror = gone;
}
