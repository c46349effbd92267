/**
 * Notifications in the page: the switches (server-wide), events from the `notify`
 * topic turned into a banner, a sound and — when the page is not looked at — a system
 * notification; the title badge; and Web Push for this device (a service worker with
 * `push_sw.js` shows what arrives while no page is open).
 *
 * @typedef {import("../../protocol/index.ts").NotifyEvent} NotifyEvent
 * @typedef {import("../../protocol/index.ts").NotifyEvents} NotifyEvents
 * @typedef {import("../../protocol/index.ts").NotifyKind} NotifyKind
 * @typedef {import("../../protocol/index.ts").PushDevice} PushDevice
 */
import { computed, signal } from "@preact/signals";
import { DEFAULT_NOTIFY_EVENTS, NOTIFY_TOPIC } from "../../protocol/index.ts";
import { onSync, onTopic, request } from "./connection.js";
import { approvalTaskIds } from "./approvals.js";
import { currentId, openTask, tasksById } from "./tasks.js";
import { badgeCount, badgedTitle, notifyKeys } from "./notify_model.js";
import { t } from "../i18n/index.js";

const SOUND_KEY = "reinagent.notifySound";
const BANNERS = 3;
/**
 * How long a banner stays unless opened or dismissed: long enough to read and tap, short
 * enough that finished tasks do not pile up over the conversation (the sidebar's unread
 * dot and the title's count stay until the task is seen).
 */
export const BANNER_MS = { finished: 8000, failed: 20000 };

export const notifyEvents = signal(/** @type {NotifyEvents} */ ({ ...DEFAULT_NOTIFY_EVENTS }));
export const pushDevices = signal(/** @type {PushDevice[]} */ ([]));
/** Finished / failed tasks not yet seen (newest first); waiting ones have the approval banner. */
export const notifyBanners = signal(/** @type {NotifyEvent[]} */ ([]));
export const soundOn = signal(loadSound());
/** "default" | "granted" | "denied" | "unsupported" | "insecure" */
export const systemPermission = signal(permissionNow());
/** This device's push subscription endpoint, when push is on here. */
export const pushEndpoint = signal(/** @type {string|null} */ (null));
export const pushBusy = signal(false);

/** Tasks waiting for you or unread: the number in the page title. */
export const badge = computed(() => badgeCount(tasksById.value.values(), approvalTaskIds.value));

/** @param {string} title */
export const withBadge = (title) => badgedTitle(title, badge.value);

function loadSound() {
  try {
    return localStorage.getItem(SOUND_KEY) !== "off";
  } catch {
    return true;
  }
}

/** @param {boolean} on */
export function setSound(on) {
  soundOn.value = on;
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // storage disabled: lasts for this page
  }
  if (on) beep();
}

/** Browsers deny notifications to plain-HTTP pages (except localhost): say that, not "blocked". */
function permissionNow() {
  if (!globalThis.isSecureContext) return "insecure";
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

export async function askSystemPermission() {
  if (typeof Notification === "undefined") return;
  systemPermission.value = await Notification.requestPermission();
}

/**
 * Why Web Push cannot work on this page, or null. Browsers give push only to secure
 * pages: HTTPS, or localhost over plain HTTP.
 * @returns {"insecure"|"unsupported"|null}
 */
export function pushBlocker() {
  if (!globalThis.isSecureContext) return "insecure";
  if (!("serviceWorker" in navigator) || typeof PushManager === "undefined") return "unsupported";
  return null;
}

/** @type {AudioContext|null} */
let audio = null;
/** Two short soft tones (no file to load; silent until the page had a user gesture). */
function beep() {
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    for (const [i, f] of [[0, 880], [1, 1320]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, now + i * 0.14);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.14 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.14 + 0.13);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.14);
      osc.stop(now + i * 0.14 + 0.14);
    }
  } catch {
    // no audio here (autoplay policy, headless)
  }
}

/** The user is looking at this task right now. */
const lookingAt = (/** @type {string} */ taskId) =>
  taskId === currentId.value && document.visibilityState === "visible" && document.hasFocus();

/** @param {NotifyEvent} e */
function systemNotify(e) {
  // A device with push gets it from the service worker (which skips a focused page).
  if (systemPermission.value !== "granted" || pushEndpoint.value) return;
  if (document.visibilityState === "visible" && document.hasFocus()) return;
  try {
    const n = new Notification(e.taskTitle || t("brand"), {
      body: t(notifyKeys(e).title),
      tag: `reinagent-${e.taskId}`,
      icon: "/favicon.svg",
    });
    n.onclick = () => {
      globalThis.focus();
      openTask(e.taskId);
      n.close();
    };
  } catch {
    // e.g. Android Chrome allows notifications only from a service worker
  }
}

/** @param {NotifyEvent} e */
export function handleNotifyEvent(e) {
  if (!notifyEvents.value[e.kind]) return;
  if (lookingAt(e.taskId)) return;
  if (e.kind !== "waiting" && !notifyBanners.value.some((b) => b.id === e.id)) {
    const rest = notifyBanners.value.filter((b) => b.taskId !== e.taskId);
    notifyBanners.value = [e, ...rest].slice(0, BANNERS);
    const ms = e.kind === "failed" ? BANNER_MS.failed : BANNER_MS.finished;
    setTimeout(() => dismissBanner(e.id), ms);
  }
  if (soundOn.value) beep();
  systemNotify(e);
}

/** @param {string} id */
export function dismissBanner(id) {
  notifyBanners.value = notifyBanners.value.filter((b) => b.id !== id);
}

/** Clears every banner (the one shown and those behind it). */
export function dismissAllBanners() {
  notifyBanners.value = [];
}

/** @param {NotifyEvent} e */
export function openFromBanner(e) {
  dismissBanner(e.id);
  openTask(e.taskId);
}

onTopic(NOTIFY_TOPIC, (d) => {
  if (d?.kind === "settings") notifyEvents.value = d.events;
  else if (d?.kind === "event" && d.event) handleNotifyEvent(d.event);
});

async function loadNotify() {
  try {
    const r = await request("notify.subscribe");
    notifyEvents.value = r.events;
    pushDevices.value = r.devices;
  } catch (e) {
    console.warn("reinagent: notify.subscribe", e);
  }
}

onSync((replayed) => {
  if (!replayed) loadNotify();
}, () => [NOTIFY_TOPIC]);

// Seeing a task clears its banner.
currentId.subscribe((id) => {
  if (id && notifyBanners.value.some((b) => b.taskId === id)) {
    notifyBanners.value = notifyBanners.value.filter((b) => b.taskId !== id);
  }
});

/** @param {Partial<NotifyEvents>} patch */
export async function setNotifyEvents(patch) {
  const before = notifyEvents.value;
  notifyEvents.value = { ...before, ...patch };
  try {
    notifyEvents.value = (await request("notify.setEvents", { events: patch })).events;
  } catch (e) {
    notifyEvents.value = before;
    throw e;
  }
}

// ---------- Web Push for this device ----------

/** The registration that handles push: the app's service worker (it imports push_sw.js). */
async function registration() {
  const existing = await navigator.serviceWorker.getRegistration("/");
  if (existing) return existing;
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  return await navigator.serviceWorker.ready;
}

/** @param {string} s */
function keyBytes(s) {
  const b64 = s.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - b64.length % 4) % 4)), (c) => c.charCodeAt(0));
}

/** Finds this device's subscription (after a reload) without asking anything. */
export async function refreshPushState() {
  if (pushBlocker()) return;
  const reg = await navigator.serviceWorker.getRegistration("/");
  const sub = await reg?.pushManager.getSubscription();
  pushEndpoint.value = sub?.endpoint ?? null;
}

/** Asks permission, subscribes with the server's VAPID key and registers the device. */
export async function enablePush() {
  pushBusy.value = true;
  try {
    await askSystemPermission();
    if (systemPermission.value !== "granted") throw new Error(t("notify.system.denied"));
    const { publicKey } = await request("push.key");
    const reg = await registration();
    let sub = await reg.pushManager.getSubscription();
    if (sub && keyOf(sub) !== publicKey) {
      await sub.unsubscribe(); // made with another server's key
      sub = null;
    }
    sub ??= await reg.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(publicKey),
    });
    const json = sub.toJSON();
    await request("push.register", {
      endpoint: sub.endpoint,
      p256dh: json.keys?.p256dh ?? "",
      auth: json.keys?.auth ?? "",
    });
    pushEndpoint.value = sub.endpoint;
    await loadNotify();
  } finally {
    pushBusy.value = false;
  }
}

/** @param {PushSubscription} sub */
function keyOf(sub) {
  const k = sub.options.applicationServerKey;
  if (!k) return null;
  const bytes = new Uint8Array(k);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

export async function disablePush() {
  pushBusy.value = true;
  try {
    const reg = await navigator.serviceWorker.getRegistration("/");
    const sub = await reg?.pushManager.getSubscription();
    const endpoint = sub?.endpoint ?? pushEndpoint.value;
    await sub?.unsubscribe();
    if (endpoint) await request("push.unregister", { endpoint });
    pushEndpoint.value = null;
    await loadNotify();
  } finally {
    pushBusy.value = false;
  }
}

export async function testPush() {
  if (!pushEndpoint.value) return null;
  return await request("push.test", { endpoint: pushEndpoint.value });
}

// A tap on a push notification while a page is open: the service worker asks it to open the task.
if (typeof navigator !== "undefined" && "serviceWorker" in navigator) {
  navigator.serviceWorker.addEventListener("message", (ev) => {
    const d = ev.data;
    if (d?.type === "reinagent.openTask" && typeof d.taskId === "string" && d.taskId) {
      openTask(d.taskId);
    }
  });
  refreshPushState().catch(() => {});
}
