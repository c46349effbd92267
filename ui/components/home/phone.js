/**
 * When the phone task home replaces the start view: a phone-wide viewport (< 768 px,
 * the same breakpoint as the drawer), no task open, the home chosen over the draft
 * (`homeShown`), and at least one task (or still loading) — with no task at all the
 * start view is the draft, ready to type.
 *
 * History on phones: the home is the bottom entry; a task or a draft opened from it
 * gets an entry of its own (`overHome`), so the browser's Back (gesture) returns to
 * the home. A task shown without one below (a reload, a link, the first task sent
 * from the start draft) gets the home entry put under it.
 */
import { computed, effect, signal } from "@preact/signals";
import { currentId, homeShown, pushDraftEntry, tasksById, tasksLoaded } from "../../state/tasks.js";

const QUERY = "(max-width: 767px)";

/** Whether the viewport is phone-wide; follows resizes and rotation. */
export const phoneWide = signal(false);

if (typeof matchMedia === "function") {
  const mq = matchMedia(QUERY);
  phoneWide.value = mq.matches;
  mq.addEventListener("change", (e) => phoneWide.value = e.matches);
}

/** Whether the app shows the task home now. */
export const homeActive = computed(() =>
  phoneWide.value && currentId.value === null && homeShown.value &&
  !(tasksLoaded.value && tasksById.value.size === 0)
);

// Leaving the home for the draft (its New task, a workspace's +, the drawer's New
// task) gives the draft its own history entry, so Back returns to the home.
let wasHome = false;
effect(() => {
  const home = homeActive.value;
  if (
    wasHome && !home && phoneWide.peek() && currentId.value === null && !homeShown.value &&
    history.state?.draft !== true
  ) pushDraftEntry();
  wasHome = home;
});

/** Puts a home entry under the task entry shown, when it has none. */
function ensureHomeBelow() {
  if (!phoneWide.peek() || !/^#\/t\//.test(location.hash) || history.state?.overHome) return;
  const base = location.pathname + location.search;
  const hash = location.hash;
  history.replaceState({ home: true }, "", base);
  history.pushState({ overHome: true }, "", base + hash);
}
effect(() => {
  // After show() wrote the task's URL.
  if (currentId.value !== null && phoneWide.value) queueMicrotask(ensureHomeBelow);
});

// No task at all: the start view is the draft, and stays so when a task arrives from
// elsewhere while typing there (Back then goes to the home).
effect(() => {
  if (
    phoneWide.value && tasksLoaded.value && tasksById.value.size === 0 &&
    currentId.value === null && homeShown.peek()
  ) {
    homeShown.value = false;
    if (history.state?.draft !== true) pushDraftEntry();
  }
});
