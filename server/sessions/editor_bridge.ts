/**
 * The editors attached to tasks (protocol/editor.ts): which client speaks for the editor
 * of a task and what it offers, and the requests in flight to it. A request goes to that
 * client as an `{t: "editor"}` message and waits for its `editor.reply`; an answer from
 * any other client, for an unknown request or too late is ignored. When the client
 * leaves, its tasks fall back to the built-in tools and what it had not answered fails.
 */
import type { EditorAskMsg, EditorCaps, EditorMethod } from "../../protocol/editor.ts";
import type { EditorAccess } from "../../tools/editor.ts";
import type { HubClient } from "./hub.ts";

/** An editor's failure in words (its error, or why there was no answer). */
export class EditorError extends Error {}

interface Attached {
  client: HubClient;
  caps: EditorCaps;
  name: string;
}

interface Pending {
  clientId: string;
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/** At most this many requests wait for one client (a tool asks one at a time). */
const MAX_PENDING = 64;

export class EditorBridge {
  private byTask = new Map<string, Attached>();
  private pending = new Map<number, Pending>();
  private nextId = 1;

  /** `client` is the editor of `taskId` from now on (what it offers: `caps`). */
  attach(taskId: string, client: HubClient, caps: EditorCaps, name = "editor"): void {
    if (!client.raw) throw new EditorError("only a WebSocket client can speak for an editor");
    this.byTask.set(taskId, { client, caps, name: name.slice(0, 80) });
  }

  /** Task `taskId` no longer uses `clientId`'s editor (if that is the one attached). */
  detach(taskId: string, clientId: string): void {
    if (this.byTask.get(taskId)?.client.id === clientId) this.byTask.delete(taskId);
  }

  /** A client left: its tasks use the built-in tools again; what it owes fails. */
  dropClient(clientId: string): void {
    for (const [taskId, a] of this.byTask) if (a.client.id === clientId) this.byTask.delete(taskId);
    for (const [id, p] of this.pending) {
      if (p.clientId !== clientId) continue;
      this.pending.delete(id);
      p.reject(new EditorError("the editor disconnected"));
    }
  }

  /** What task `taskId`'s tools may ask of its editor (null: none attached, or it offers nothing). */
  access(taskId: string): EditorAccess | null {
    const a = this.byTask.get(taskId);
    if (!a || !(a.caps.read || a.caps.write || a.caps.terminal)) return null;
    return {
      caps: { ...a.caps },
      request: (method, params, signal) => this.ask(taskId, a, method, params, signal),
    };
  }

  /** The answer of `clientId` to request `id`; false when it was not that client's to give. */
  reply(clientId: string, id: number, answer: { result?: unknown; error?: string }): boolean {
    const p = this.pending.get(id);
    if (!p || p.clientId !== clientId) return false;
    this.pending.delete(id);
    if (answer.error !== undefined) p.reject(new EditorError(answer.error.slice(0, 2000)));
    else p.resolve(answer.result ?? null);
    return true;
  }

  private ask(
    taskId: string,
    a: Attached,
    method: EditorMethod,
    params: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<unknown> {
    if (this.byTask.get(taskId) !== a) {
      return Promise.reject(new EditorError("the editor is no longer connected"));
    }
    if (signal.aborted) return Promise.reject(new EditorError("stopped"));
    const mine = [...this.pending.values()].filter((p) => p.clientId === a.client.id).length;
    if (mine >= MAX_PENDING) {
      return Promise.reject(new EditorError("the editor has too many requests waiting"));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const abort = () => {
        if (!this.pending.delete(id)) return;
        reject(new EditorError(signal.reason instanceof Error ? signal.reason.message : "stopped"));
      };
      signal.addEventListener("abort", abort, { once: true });
      this.pending.set(id, {
        clientId: a.client.id,
        resolve: (v) => {
          signal.removeEventListener("abort", abort);
          resolve(v);
        },
        reject: (e) => {
          signal.removeEventListener("abort", abort);
          reject(e);
        },
      });
      const msg: EditorAskMsg = { t: "editor", id, taskId, method, params };
      a.client.raw!.send(JSON.stringify(msg));
    });
  }
}
