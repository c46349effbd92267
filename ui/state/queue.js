/**
 * The shown task's steering queue: messages sent while it ran, waiting for the run to
 * complete. Kept in sync from `queue.list` (on open and reconnect) and the `queue`
 * events of the task topic; every client sees the same queue.
 *
 * @typedef {import("../../protocol/index.ts").QueuedMessage} QueuedMessage
 */
import { effect, signal } from "@preact/signals";
import { connState, errorCode, onSync, onTopic, request } from "./connection.js";
import { currentId, shownTaskTopic } from "./tasks.js";
import { notifyError } from "./ui.js";

/** Messages waiting in the shown task (oldest first). */
export const queue = signal(/** @type {QueuedMessage[]} */ ([]));
/** Item ids with a remove/send request on its way. */
export const queueBusy = signal(/** @type {Set<string>} */ (new Set()));

let gen = 0;

/** Loads the queue of the shown task (call when the view or the connection changes). */
export async function loadQueue() {
  const id = currentId.value;
  const mine = ++gen;
  if (!id) {
    queue.value = [];
    return;
  }
  try {
    const r = await request("queue.list", { id });
    if (mine === gen && currentId.value === id) queue.value = r.queue;
  } catch (e) {
    const code = errorCode(e);
    if (code !== "disconnected" && code !== "not_found" && code !== "store_unavailable") {
      notifyError("queue.error.load", e);
    }
  }
}

/** Starts following the shown task's queue; call once at start-up. */
export function initQueue() {
  onTopic(shownTaskTopic, (data) => {
    if (data?.kind === "queue" && Array.isArray(data.queue)) {
      gen++; // newer than any list request on its way
      queue.value = data.queue;
    }
  });
  effect(() => {
    currentId.value; // reload when the view changes…
    queue.value = [];
    if (connState.peek() === "open") loadQueue();
  });
  // …and after a (re)connection whose missed events could not be replayed.
  onSync((replayed) => {
    if (!replayed) loadQueue();
  });
}

/**
 * @param {string} itemId
 * @param {"queue.remove" | "queue.send"} op
 */
async function act(itemId, op) {
  const id = currentId.value;
  if (!id || queueBusy.value.has(itemId)) return;
  queueBusy.value = new Set([...queueBusy.value, itemId]);
  try {
    const r = await request(op, { id, itemId });
    if (currentId.value === id) queue.value = r.queue;
  } catch (e) {
    notifyError(op === "queue.remove" ? "queue.error.remove" : "queue.error.send", e);
  } finally {
    const next = new Set(queueBusy.value);
    next.delete(itemId);
    queueBusy.value = next;
  }
}

/** Removes a queued message (it is not sent). @param {string} itemId */
export const removeQueued = (itemId) => act(itemId, "queue.remove");
/** Sends a queued message now (after a stop or an error). @param {string} itemId */
export const sendQueued = (itemId) => act(itemId, "queue.send");
