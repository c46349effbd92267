/**
 * Things of the task shown now that the server lists by task and then keeps live with
 * events on the task's topic (sub-agent runs, background commands): fetched when another
 * task is shown and after a reconnection that could not replay, replaced by id on each
 * event. A reconnection that replayed needs nothing more: the events carried the changes.
 *
 * @typedef {import("../../protocol/index.ts").TaskEvent} TaskEvent
 */
import { effect, signal } from "@preact/signals";
import { connState, onSync, onTopic } from "./connection.js";
import { currentId, shownTaskTopic } from "./tasks.js";

/**
 * @template {{id: string, taskId: string | null}} T
 * @param {{
 *   what: string,
 *   list: (taskId: string) => Promise<T[]>,
 *   fromEvent: (data: TaskEvent) => T | undefined,
 * }} o `what` names the list in warnings; `fromEvent` picks the item out of a task event.
 */
export function taskLiveMap(o) {
  const items = signal(/** @type {Map<string, T>} */ (new Map()));
  /** @param {T | undefined} item */
  const put = (item) => {
    if (!item || typeof item.id !== "string" || item.taskId !== currentId.value) return;
    const next = new Map(items.value);
    next.set(item.id, item);
    items.value = next;
  };
  let loading = 0;
  /** @param {string|null} id */
  const load = async (id) => {
    const mine = ++loading;
    items.value = new Map();
    if (!id) return;
    try {
      const list = await o.list(id);
      if (mine === loading) items.value = new Map(list.map((x) => [x.id, x]));
    } catch (e) {
      console.warn(`reinagent: ${o.what}`, e);
    }
  };
  effect(() => {
    const id = currentId.value;
    if (connState.peek() === "open") load(id);
  });
  onSync((replayed) => {
    if (!replayed) load(currentId.peek());
  });
  onTopic(shownTaskTopic, (data) => put(o.fromEvent(data)));
  return { items, put };
}
