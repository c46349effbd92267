/**
 * Event fan-out to connected clients. Events are queued and flushed every
 * `flushMs`. Coalescing: when the latest queued event of a topic has the same
 * `coalesceKey`, the new one replaces it (or is merged into it), so a burst of updates
 * to one entry costs one frame per client while the order within a topic is kept. Each
 * flushed event gets the next `seq`; the last `ringSize` events are kept so a client
 * that reconnects can ask for everything after the seq it saw.
 */
import type { ClientInfo, EvtMsg } from "../../protocol/index.ts";

export interface HubClient {
  readonly id: string;
  readonly topics: Set<string>;
  /** Who it is (User-Agent and address), for records and notices: who rewound, who lowered safety. */
  readonly info?: ClientInfo;
  /** When it connected (ms since the epoch), for Settings → Remote access. */
  readonly since?: number;
  /** Closes its connection (a token reset drops every client). */
  disconnect?(code: number, reason: string): void;
  /** Sends a batch of events (already ordered by seq). */
  deliver(events: EvtMsg[]): void;
  /** The connection itself, for frames outside the event ring (terminal output). */
  readonly raw?: { send(frame: string): void; buffered(): number };
}

interface Pending {
  topic: string;
  data: unknown;
  coalesceKey?: string;
}

/** Combines a queued event's data with a newer one (e.g. concatenating text deltas). */
export type Merge = (older: unknown, newer: unknown) => unknown;

export class EventHub {
  readonly epoch: string = crypto.randomUUID();
  private seq = 0;
  private ring: EvtMsg[] = [];
  private queue: Pending[] = [];
  private lastOfTopic = new Map<string, Pending>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private clients = new Set<HubClient>();
  /** In-process listeners (e.g. notifications): served like clients, never counted as one. */
  private observers = new Set<HubClient>();

  constructor(private flushMs = 30, private ringSize = 5000) {}

  get lastSeq(): number {
    return this.seq;
  }

  get clientCount(): number {
    return this.clients.size;
  }

  add(client: HubClient): void {
    this.clients.add(client);
  }

  remove(client: HubClient): void {
    this.clients.delete(client);
    this.observers.delete(client);
  }

  /** Adds a server-side listener that is not a connected client. */
  observe(observer: HubClient): void {
    this.observers.add(observer);
  }

  /** The connected clients, in the order they connected. */
  list(): HubClient[] {
    return [...this.clients];
  }

  /**
   * Queues an event for `topic`. With `coalesceKey`, it replaces (or, with `merge`,
   * merges into) the topic's latest queued event when that has the same key.
   */
  publish(topic: string, data: unknown, coalesceKey?: string, merge?: Merge): void {
    const last = this.lastOfTopic.get(topic);
    if (coalesceKey && last?.coalesceKey === coalesceKey) {
      last.data = merge ? merge(last.data, data) : data;
      return;
    }
    const p: Pending = { topic, data, coalesceKey };
    this.queue.push(p);
    this.lastOfTopic.set(topic, p);
    this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  /** Sends everything queued now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length === 0) return;
    const batch = this.queue.map((p): EvtMsg => ({
      t: "evt",
      topic: p.topic,
      seq: ++this.seq,
      data: p.data,
    }));
    this.queue = [];
    this.lastOfTopic.clear();
    this.ring.push(...batch);
    if (this.ring.length > this.ringSize) this.ring.splice(0, this.ring.length - this.ringSize);
    for (const c of [...this.observers, ...this.clients]) {
      const mine = batch.filter((e) => c.topics.has(e.topic));
      if (mine.length) c.deliver(mine);
    }
  }

  /**
   * Events after `afterSeq` for `topics`, or null when they are no longer (or were
   * never) in the ring — the client must then take a fresh snapshot.
   */
  replay(epoch: string, afterSeq: number, topics: Set<string>): EvtMsg[] | null {
    if (epoch !== this.epoch || afterSeq > this.seq) return null;
    const oldest = this.ring.length ? this.ring[0].seq : this.seq + 1;
    if (afterSeq + 1 < oldest) return null;
    return this.ring.filter((e) => e.seq > afterSeq && topics.has(e.topic));
  }

  close(): void {
    this.flush();
    this.clients.clear();
    this.observers.clear();
  }
}
