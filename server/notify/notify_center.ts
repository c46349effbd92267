/**
 * Tells people when a task needs them or finishes. It listens to the hub's `tasks`
 * topic like a client, turns status changes into {@link NotifyEvent}s
 * (`transitions.ts`), publishes them on the `notify` topic (every open page: badge,
 * banner, sound, system notification) and sends them by Web Push to every registered
 * device (a phone with the browser closed) — each only when its switch is on.
 */
import {
  DEFAULT_NOTIFY_EVENTS,
  NOTIFY_TOPIC,
  type NotifyEvent,
  type NotifyEvents,
  type NotifyKind,
  type NotifyTopicEvent,
  PUSH_LIMITS,
  type PushDevice,
  taskRoute,
  TASKS_TOPIC,
  type TaskSummary,
} from "../../protocol/index.ts";
import type { EvtMsg } from "../../protocol/index.ts";
import type { Repos } from "../../store/store.ts";
import type { PushSubscriptionRow } from "../../store/push_subscriptions.ts";
import type { IdFn } from "../../store/ids.ts";
import type { EventHub, HubClient } from "../sessions/hub.ts";
import type { ApprovalCenter } from "../sessions/approvals.ts";
import { OpError } from "../errors.ts";
import { notifyKindOf } from "./transitions.ts";
import { endpointProblem, type PushResult, sendPush } from "./push_sender.ts";
import { loadVapid, type VapidKeys } from "./vapid.ts";
import { subscriptionKeys } from "./ece.ts";

const EVENTS_KEY = "notify.events";

export interface NotifyDeps {
  home: string;
  repos: Repos;
  hub: EventHub;
  approvals: ApprovalCenter | null;
  newId: IdFn;
  now: () => number;
  fetch?: typeof fetch;
}

/** What a push message carries (the service worker builds the notification from it). */
export interface PushPayload extends NotifyEvent {
  v: 1;
  url: string;
}

export class NotifyCenter implements HubClient {
  readonly id = "notify-center";
  readonly topics = new Set(["tasks"]);
  private seen: Map<string, Pick<TaskSummary, "status" | "lastRun">>;
  private vapid: Promise<VapidKeys> | null = null;
  /** Deliveries in flight (tests and shutdown wait for them). */
  private sending = new Set<Promise<unknown>>();

  constructor(private d: NotifyDeps) {
    // Status and last run only: whole summaries cost ~20 ms per start at 2 000 tasks.
    this.seen = d.repos.tasks.states();
    d.hub.observe(this);
  }

  deliver(events: EvtMsg[]): void {
    for (const e of events) {
      if (e.topic !== TASKS_TOPIC) continue;
      const data = e.data;
      if (data.kind === "delete") this.seen.delete(data.id);
      if (data.kind !== "upsert") continue;
      const t = data.task;
      const kind = notifyKindOf(this.seen.get(t.id), t);
      this.seen.set(t.id, { status: t.status, lastRun: t.lastRun });
      if (kind) this.emit(kind, t);
    }
  }

  /** Why the task waits: a question of ask_user_question, else an approval. */
  private reasonOf(taskId: string): NotifyEvent["reason"] {
    const mine = this.d.approvals?.list().filter((a) => a.taskId === taskId && a.live) ?? [];
    return mine.some((a) => a.kind === "question") ? "question" : "approval";
  }

  /** A task's branch was merged, kept or discarded: every device is told (and pushed). */
  branchFinished(t: TaskSummary, branch: NonNullable<NotifyEvent["branch"]>): void {
    this.emit("branch", t, branch);
  }

  private emit(kind: NotifyKind, t: TaskSummary, branch?: NotifyEvent["branch"]): void {
    const event: NotifyEvent = {
      id: this.d.newId("n"),
      kind,
      reason: kind === "waiting" ? this.reasonOf(t.id) : null,
      taskId: t.id,
      taskTitle: t.title,
      at: this.d.now(),
      ...(branch ? { branch } : {}),
    };
    const on = this.events()[kind];
    if (on) this.publish({ kind: "event", event });
    if (on && this.d.repos.push.count() > 0) {
      this.track(this.pushAll(event, kind === "waiting" ? "high" : "normal"));
    }
  }

  private publish(e: NotifyTopicEvent): void {
    this.d.hub.publish(NOTIFY_TOPIC, e);
  }

  private track(p: Promise<unknown>): void {
    this.sending.add(p);
    p.finally(() => this.sending.delete(p));
  }

  /** Resolves when every push started so far has been answered. */
  async idle(): Promise<void> {
    while (this.sending.size) await Promise.allSettled([...this.sending]);
  }

  // ---------- switches ----------

  events(): NotifyEvents {
    const stored = this.d.repos.kv.get(EVENTS_KEY) as Partial<NotifyEvents> | undefined;
    const out = { ...DEFAULT_NOTIFY_EVENTS };
    for (const k of Object.keys(out) as NotifyKind[]) {
      if (typeof stored?.[k] === "boolean") out[k] = stored[k];
    }
    return out;
  }

  setEvents(patch: Partial<NotifyEvents>): NotifyEvents {
    const next = { ...this.events(), ...patch };
    this.d.repos.kv.set(EVENTS_KEY, next);
    this.publish({ kind: "settings", events: next });
    return next;
  }

  // ---------- Web Push ----------

  /** The VAPID key pair, created on first use; a broken file fails with its reason. */
  keys(): Promise<VapidKeys> {
    this.vapid ??= loadVapid(this.d.home).catch((e) => {
      this.vapid = null; // fixed by the user → the next call reads it again
      throw new OpError("internal", `Web Push keys: ${(e as Error).message}`);
    });
    return this.vapid;
  }

  devices(): PushDevice[] {
    return this.d.repos.push.list().map(toDevice);
  }

  register(a: { endpoint: string; p256dh: string; auth: string; device: string }): PushDevice {
    const problem = endpointProblem(a.endpoint);
    if (problem) throw new OpError("invalid_args", problem);
    try {
      subscriptionKeys(a.p256dh, a.auth);
    } catch (e) {
      throw new OpError("invalid_args", (e as Error).message);
    }
    const push = this.d.repos.push;
    if (!push.byEndpoint(a.endpoint) && push.count() >= PUSH_LIMITS.devices) {
      throw new OpError(
        "too_large",
        `at most ${PUSH_LIMITS.devices} devices; remove one in Settings first`,
      );
    }
    return toDevice(push.upsert({ id: this.d.newId("ps"), ...a }));
  }

  unregister(endpoint: string): boolean {
    return this.d.repos.push.remove(endpoint);
  }

  /** After a token reset: every device pairs again, so none keeps its push registration. */
  forgetDevices(): number {
    const rows = this.d.repos.push.list();
    for (const r of rows) this.d.repos.push.remove(r.endpoint);
    return rows.length;
  }

  /** Sends a test notification to one registered device and reports the answer. */
  async test(endpoint: string): Promise<PushResult> {
    const row = this.d.repos.push.byEndpoint(endpoint);
    if (!row) throw new OpError("not_found", "this device is not registered for push");
    const event: NotifyEvent = {
      id: this.d.newId("n"),
      kind: "finished",
      reason: null,
      taskId: "",
      taskTitle: "",
      at: this.d.now(),
    };
    return await this.pushOne(await this.keys(), row, event, "normal");
  }

  private async pushAll(event: NotifyEvent, urgency: "high" | "normal"): Promise<void> {
    let keys: VapidKeys;
    try {
      keys = await this.keys();
    } catch (e) {
      console.error(`ReinAgent: push not sent: ${(e as Error).message}`);
      return;
    }
    await Promise.all(
      this.d.repos.push.list().map((row) => this.pushOne(keys, row, event, urgency)),
    );
  }

  private async pushOne(
    keys: VapidKeys,
    row: PushSubscriptionRow,
    event: NotifyEvent,
    urgency: "high" | "normal",
  ): Promise<PushResult> {
    const payload: PushPayload = {
      v: 1,
      ...event,
      url: event.taskId ? taskRoute(event.taskId) : "",
    };
    const r = await sendPush(keys, row, payload, urgency, this.d.fetch);
    if (r.gone) this.d.repos.push.remove(row.endpoint);
    else this.d.repos.push.delivered(row.id, r.ok);
    if (!r.ok) console.error(`ReinAgent: push to ${hostOf(row.endpoint)} failed: ${r.error}`);
    return r;
  }

  close(): void {
    this.d.hub.remove(this);
  }
}

const hostOf = (endpoint: string) => {
  try {
    return new URL(endpoint).host;
  } catch {
    return "?";
  }
};

const toDevice = (r: PushSubscriptionRow): PushDevice => ({
  id: r.id,
  device: r.device,
  service: hostOf(r.endpoint),
  createdAt: r.createdAt,
  lastOkAt: r.lastOkAt,
  failures: r.failures,
});
