/**
 * Notifications when a task needs you or finishes: the events every
 * client hears on the `notify` topic (in-page badge, banner, sound, system
 * notification), the per-event switches (server-wide, so Web Push obeys them too) and
 * the Web Push device registrations.
 *
 * Ops: `notify.subscribe {}` (switches + the `notify` topic), `notify.setEvents {events}`,
 * `push.key {}` (the VAPID public key, generated on first use), `push.register
 * {endpoint, p256dh, auth, device}`, `push.unregister {endpoint}`, `push.test {endpoint}`.
 */
import { bool, obj, type Schema, str } from "./schema.ts";

export const NOTIFY_TOPIC = "notify";

/**
 * What a notification is about: a task waits for an approval or an answer, finished,
 * failed, or its branch (a task in a worktree of its own) was merged, kept or discarded.
 */
export const NOTIFY_KINDS = ["waiting", "finished", "failed", "branch"] as const;
export type NotifyKind = typeof NOTIFY_KINDS[number];

/** One notification, as clients and the push payload carry it. */
export interface NotifyEvent {
  /** Unique per event (clients drop duplicates). */
  id: string;
  kind: NotifyKind;
  /** For `waiting`: an approval of a tool call, or a question to answer. */
  reason: "approval" | "question" | null;
  taskId: string;
  taskTitle: string;
  at: number;
  /** For `branch`: what was done with the task's branch. */
  branch?: { action: "merged" | "kept" | "discarded"; name: string };
}

/** Which events notify (all on by default). */
export type NotifyEvents = Record<NotifyKind, boolean>;
export const DEFAULT_NOTIFY_EVENTS: Readonly<NotifyEvents> = Object.freeze({
  waiting: true,
  finished: true,
  failed: true,
  branch: true,
});

/** A registered Web Push device (its endpoint is the browser's push service URL). */
export interface PushDevice {
  id: string;
  /** e.g. "Chrome on Android", from the registering client. */
  device: string;
  /** The push service's host (the full endpoint is a secret capability URL). */
  service: string;
  createdAt: number;
  /** Last successful delivery, or null. */
  lastOkAt: number | null;
  /** Deliveries that failed since the last success. */
  failures: number;
}

/** `{kind: "event"}` a notification; `{kind: "settings"}` the switches changed. */
export type NotifyTopicEvent =
  | { kind: "event"; event: NotifyEvent }
  | { kind: "settings"; events: NotifyEvents };

/** The path a notification tap opens (the task's route). */
export const taskRoute = (taskId: string) => `#/t/${taskId}`;

/** Limits of a push registration (the browser's values are far smaller). */
export const PUSH_LIMITS = { endpointChars: 2048, devices: 50 } as const;

const b64url = (max: number) => str({ min: 16, max, pattern: /^[A-Za-z0-9_-]+={0,2}$/ });
const endpoint = str({ min: 12, max: PUSH_LIMITS.endpointChars, pattern: /^https?:\/\/\S+$/ });

export const NOTIFY_OP_ARGS = {
  "notify.subscribe": obj({}),
  "notify.setEvents": obj({
    events: obj({ "waiting?": bool, "finished?": bool, "failed?": bool, "branch?": bool }),
  }),
  "push.key": obj({}),
  "push.register": obj({
    endpoint,
    /** The subscription's P-256 public key (uncompressed, base64url). */
    p256dh: b64url(100),
    /** The subscription's 16-byte auth secret (base64url). */
    auth: b64url(40),
    /** A label for the Settings list; default: the browser and system the server sees. */
    "device?": str({ max: 120 }),
  }),
  "push.unregister": obj({ endpoint }),
  /** Sends a test notification to one registered device. */
  "push.test": obj({ endpoint }),
} satisfies Record<string, Schema>;

export interface NotifyOpResults {
  "notify.subscribe": { events: NotifyEvents; devices: PushDevice[]; seq: number };
  "notify.setEvents": { events: NotifyEvents };
  "push.key": { publicKey: string };
  "push.register": { device: PushDevice };
  "push.unregister": { removed: boolean };
  "push.test": { ok: boolean; status: number; error?: string };
}
