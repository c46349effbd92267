/**
 * Event fan-out to connected clients. Events are queued and flushed every
 * `flushMs`. Coalescing: when the latest queued event of a topic has the same
 * `coalesceKey`, the new one replaces it (or is merged into it), so a burst of updates
 * to one entry costs one frame per client while the order within a topic is kept. Each
 * flushed event gets the next `seq`; the last `ringSize` events (at most `ringBytes` of
 * JSON) are kept so a client that reconnects can ask for everything after the seq it saw.
 * The ring keeps each event as the JSON sent: compact (the soak's peak fell by the
 * object graphs it no longer holds) and a true record even if the data object changes.
 */
import type { ClientInfo } from "../../protocol/index.ts";
import type { Topic, TopicEvent, TopicMap } from "../../protocol/topics.ts";

/**
 * A connected client or an in-process listener. `M` maps topics to payloads: the
 * server's {@link TopicMap} unless a hub is made for another map (the hub's own tests).
 */
export interface HubClient<M = TopicMap> {
  readonly id: string;
  readonly topics: Set<string>;
  /** Who it is (User-Agent and address), for records and notices: who rewound, who lowered safety. */
  readonly info?: ClientInfo;
  /** When it connected (ms since the epoch), for Settings → Remote access. */
  readonly since?: number;
  /** Closes its connection (a token reset drops every client). */
  disconnect?(code: number, reason: string): void;
  /**
   * Sends a batch of events (already ordered by seq); `frames[i]`, when given, is
   * `events[i]` already serialized (the hub does it once for every client).
   */
  deliver(events: TopicEvent<M>[], frames?: string[]): void;
  /** The connection itself, for frames outside the event ring (terminal output). */
  readonly raw?: { send(frame: string): void; buffered(): number };
}

/** A queued event; `publish` checked that `data` is the payload of `topic`. */
interface Pending {
  topic: string;
  data: unknown;
  coalesceKey?: string;
}

/** Combines a queued event's data with a newer one (e.g. concatenating text deltas). */
export type Merge<P> = (older: P, newer: P) => P;

interface RingEvent {
  seq: number;
  topic: string;
  json: string;
}

/** Events dropped from the ring that may stay referenced until it is cut. */
const DEAD_EVENTS_MAX = 1024;

/** The replay ring's default byte budget (of JSON). */
export const RING_BYTES = 8 * 1024 * 1024;

/**
 * The hub of the topics of `M`: {@link publish} takes only a topic of the map with its
 * payload, and clients receive events typed by topic.
 */
export class EventHub<M = TopicMap> {
  readonly epoch: string = crypto.randomUUID();
  private seq = 0;
  private ring: RingEvent[] = [];
  /** Where the ring starts in `ring` (dropped in chunks, not one splice per flush). */
  private ringStart = 0;
  private ringBytesUsed = 0;
  private queue: Pending[] = [];
  private lastOfTopic = new Map<string, Pending>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private microtask = false;
  private clients = new Set<HubClient<M>>();
  /** In-process listeners (e.g. notifications): served like clients, never counted as one. */
  private observers = new Set<HubClient<M>>();
  /** Run once at close: feeds from process-wide sources stop publishing into this hub. */
  private closers: (() => void)[] = [];
  private leaveFns: ((client: HubClient<M>) => void)[] = [];

  constructor(
    private flushMs = 30,
    private ringSize = 5000,
    private ringBytes = RING_BYTES,
  ) {}

  get lastSeq(): number {
    return this.seq;
  }

  get clientCount(): number {
    return this.clients.size;
  }

  add(client: HubClient<M>): void {
    this.clients.add(client);
  }

  remove(client: HubClient<M>): void {
    const was = this.clients.delete(client);
    this.observers.delete(client);
    if (was) { for (const fn of this.leaveFns) fn(client); }
  }

  /** Calls `fn` after a client left (what only it was shown may go to the others now). */
  onLeave(fn: (client: HubClient<M>) => void): void {
    this.leaveFns.push(fn);
  }

  /** Adds a server-side listener that is not a connected client. */
  observe(observer: HubClient<M>): void {
    this.observers.add(observer);
  }

  /** The connected clients, in the order they connected. */
  list(): HubClient<M>[] {
    return [...this.clients];
  }

  /**
   * Queues an event for `topic`. With `coalesceKey`, it replaces (or, with `merge`,
   * merges into) the topic's latest queued event when that has the same key.
   */
  publish<T extends Topic<M>>(
    topic: T,
    data: M[T],
    coalesceKey?: string,
    merge?: Merge<M[T]>,
  ): void {
    const last = this.lastOfTopic.get(topic);
    if (coalesceKey && last?.coalesceKey === coalesceKey) {
      // The same topic and key: the queued data is of this topic's payload too.
      last.data = merge ? merge(last.data as M[T], data) : data;
      return;
    }
    const p: Pending = { topic, data, coalesceKey };
    this.queue.push(p);
    this.lastOfTopic.set(topic, p);
    this.schedule();
  }

  /**
   * The next flush: after `flushMs`, or with 0 (a headless run's own client) once the
   * current work is done — a microtask, not a timer: Deno's first `setTimeout` loads
   * Node's timers (~10 ms, 3 MB), which a run should not pay before its first request.
   */
  private schedule(): void {
    if (this.timer !== undefined || this.microtask) return;
    if (this.flushMs > 0) this.timer = setTimeout(() => this.flush(), this.flushMs);
    else {
      this.microtask = true;
      queueMicrotask(() => {
        if (this.microtask) this.flush();
      });
    }
  }

  /** Sends everything queued now. */
  flush(): void {
    // Only when one was set: even `clearTimeout(undefined)` loads Node's timers (~15 ms).
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.microtask = false;
    if (this.queue.length === 0) return;
    const batch = this.queue.map((p) =>
      ({ t: "evt", topic: p.topic, seq: ++this.seq, data: p.data }) as TopicEvent<M>
    );
    this.queue = [];
    this.lastOfTopic.clear();
    const frames = batch.map((e) => JSON.stringify(e));
    for (let i = 0; i < batch.length; i++) {
      this.ring.push({ seq: batch[i].seq, topic: batch[i].topic, json: frames[i] });
      this.ringBytesUsed += frames[i].length;
    }
    this.trimRing();
    for (const c of [...this.observers, ...this.clients]) {
      const mine: TopicEvent<M>[] = [];
      const mineFrames: string[] = [];
      for (let i = 0; i < batch.length; i++) {
        if (!c.topics.has(batch[i].topic)) continue;
        mine.push(batch[i]);
        mineFrames.push(frames[i]);
      }
      if (mine.length) c.deliver(mine, mineFrames);
    }
  }

  /** Drops the oldest events beyond the count or byte budget (the newest always stays). */
  private trimRing(): void {
    while (
      this.ring.length - this.ringStart > 1 &&
      (this.ring.length - this.ringStart > this.ringSize || this.ringBytesUsed > this.ringBytes)
    ) {
      this.ringBytesUsed -= this.ring[this.ringStart].json.length;
      this.ringStart++;
    }
    // Dropped events stay referenced until the array is cut: cut every 1024 drops (a copy
    // of ≤ ringSize pointers). Cut only once half the array was dead, up to 5 000 dropped
    // events (~5 MB of JSON in the soak) stayed alive between cuts.
    if (this.ringStart >= DEAD_EVENTS_MAX) {
      this.ring = this.ring.slice(this.ringStart);
      this.ringStart = 0;
    }
  }

  /**
   * Events after `afterSeq` for `topics`, or null when they are no longer (or were
   * never) in the ring — the client must then take a fresh snapshot.
   */
  replay(epoch: string, afterSeq: number, topics: Set<string>): TopicEvent<M>[] | null {
    if (epoch !== this.epoch || afterSeq > this.seq) return null;
    const oldest = this.ring.length > this.ringStart ? this.ring[this.ringStart].seq : this.seq + 1;
    if (afterSeq + 1 < oldest) return null;
    const out: TopicEvent<M>[] = [];
    for (let i = this.ringStart; i < this.ring.length; i++) {
      const e = this.ring[i];
      if (e.seq > afterSeq && topics.has(e.topic)) out.push(JSON.parse(e.json));
    }
    return out;
  }

  /** Calls `fn` when the hub closes (e.g. to unsubscribe a feed that outlives it). */
  onClose(fn: () => void): void {
    this.closers.push(fn);
  }

  close(): void {
    for (const fn of this.closers.splice(0)) fn();
    this.flush();
    this.clients.clear();
    this.observers.clear();
  }
}
