/**
 * Resumable event streams for `/mcp`: every SSE event of a session gets an id and is kept
 * here, so a client whose stream dropped reconnects with `Last-Event-ID` and gets what it
 * missed — the answer of a long `wait_for_task` included. One store per session, dropped
 * with it: an event id of one session means nothing in another. Bounded by count and
 * size (oldest first): a client that stays away longer than that starts over.
 */
import type { EventStore, JSONRPCMessage } from "./sdk.ts";

export const EVENT_LIMITS = {
  events: 1000,
  /** Characters of JSON kept in all. */
  chars: 4_000_000,
} as const;

interface Kept {
  seq: number;
  streamId: string;
  message: JSONRPCMessage;
  size: number;
}

export class SessionEventStore implements EventStore {
  #seq = 0;
  #chars = 0;
  #order: Kept[] = [];
  #byId = new Map<string, Kept>();
  /** Random per store: ids of another session, or made up, are not found. */
  #prefix = crypto.randomUUID().slice(0, 8);

  constructor(private limits: { events: number; chars: number } = EVENT_LIMITS) {}

  get size(): number {
    return this.#order.length;
  }

  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const seq = ++this.#seq;
    const id = `${this.#prefix}-${seq}`;
    const kept = { seq, streamId, message, size: JSON.stringify(message).length };
    this.#order.push(kept);
    this.#byId.set(id, kept);
    this.#chars += kept.size;
    while (
      this.#order.length > this.limits.events ||
      (this.#chars > this.limits.chars && this.#order.length > 1)
    ) {
      const old = this.#order.shift()!;
      this.#chars -= old.size;
      this.#byId.delete(`${this.#prefix}-${old.seq}`);
    }
    return Promise.resolve(id);
  }

  getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return Promise.resolve(this.#byId.get(eventId)?.streamId);
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.#byId.get(lastEventId);
    if (!last) throw new Error("unknown event id");
    for (const e of this.#order.slice()) {
      if (e.seq <= last.seq || e.streamId !== last.streamId) continue;
      // Priming events (empty) only carry an id for the client to resume from.
      if (!("jsonrpc" in e.message)) continue;
      await send(`${this.#prefix}-${e.seq}`, e.message);
    }
    return last.streamId;
  }
}
