/**
 * The search dialog across tasks: query, results from `search.query`,
 * the keyboard selection, and opening a result (the task, then the entry scrolled
 * into view once its timeline is loaded).
 *
 * @typedef {import("../../protocol/index.ts").SearchResult} SearchResult
 * @typedef {import("../../protocol/index.ts").SearchTaskHit} SearchTaskHit
 * @typedef {{taskId: string, entryId: string|null, key: string}} SearchItem
 */
import { batch, computed, effect, signal } from "@preact/signals";
import { request } from "./connection.js";
import { scrollTarget, scrollToEntry, searchOpen } from "./overlays.js";
import { currentId, openTask, timelineStatus } from "./tasks.js";
import { settingsOpen } from "./settings.js";
import { itemsOf } from "./search_model.js";

export { itemsOf } from "./search_model.js";

export const searchQuery = signal("");
export const searchResult = signal(/** @type {SearchResult|null} */ (null));
/** "idle" | "loading" | "ready" | "error" */
export const searchStatus = signal(/** @type {"idle"|"loading"|"ready"|"error"} */ ("idle"));
export const searchError = signal("");
/** Index into {@link searchItems} of the highlighted row. */
export const searchActive = signal(0);

export const searchItems = computed(() => itemsOf(searchResult.value));

let gen = 0;
/** @type {ReturnType<typeof setTimeout>|undefined} */
let timer;
const DEBOUNCE_MS = 120;

/** Runs the query now (stale answers are dropped). */
export async function runSearch(q = searchQuery.value) {
  const mine = ++gen;
  searchStatus.value = "loading";
  try {
    const r = await request("search.query", { q: q.slice(0, 200) });
    if (mine !== gen) return;
    batch(() => {
      searchResult.value = r;
      searchStatus.value = "ready";
      searchError.value = "";
      searchActive.value = 0;
    });
  } catch (e) {
    if (mine !== gen) return;
    searchStatus.value = "error";
    searchError.value = /** @type {Error} */ (e).message ?? String(e);
  }
}

/** @param {string} q */
export function setSearchQuery(q) {
  searchQuery.value = q;
  clearTimeout(timer);
  timer = setTimeout(() => runSearch(q), DEBOUNCE_MS);
}

export function openSearch() {
  searchOpen.value = true;
}

export function closeSearch() {
  clearTimeout(timer);
  searchOpen.value = false;
}

/** @param {number} delta */
export function moveActive(delta) {
  const n = searchItems.value.length;
  if (n === 0) return;
  searchActive.value = (searchActive.value + delta + n) % n;
}

/** An entry to bring into view once its task's timeline is ready. */
const pendingEntry = signal(/** @type {{taskId: string, entryId: string}|null} */ (null));

/**
 * Opens a result: the task, and for a snippet its entry.
 * @param {SearchItem} item
 */
export function chooseItem(item) {
  closeSearch();
  settingsOpen.value = false;
  pendingEntry.value = item.entryId ? { taskId: item.taskId, entryId: item.entryId } : null;
  openTask(item.taskId);
}

if (typeof document !== "undefined") {
  // Each opening starts from the current query's answer (recent tasks when empty).
  effect(() => {
    if (searchOpen.value) runSearch(searchQuery.peek());
  });
  effect(() => {
    const p = pendingEntry.value;
    if (!p || currentId.value !== p.taskId || timelineStatus.value !== "ready") return;
    pendingEntry.value = null;
    scrollToEntry(p.entryId);
    revealEntry(p.entryId);
  });
}

/**
 * Makes sure the entry ends up in view: the timeline handles `scrollToEntry` (also
 * rendering entries that are virtualised away), but a request made while the freshly
 * opened timeline is still measuring itself can land short — then it is asked again.
 * @param {string} entryId
 */
export function revealEntry(entryId) {
  let tries = 0;
  // Another scroll request since (find, another search hit) wins: stop insisting.
  let mine = scrollTarget.peek()?.nonce;
  const check = () => {
    if (scrollTarget.peek()?.nonce !== mine) return;
    const el = document.querySelector(`[data-entry-id="${CSS.escape(entryId)}"]`);
    const r = el?.getBoundingClientRect();
    const shown = r && r.height > 0 && r.bottom > 0 && r.top < innerHeight;
    if (shown) return;
    if (++tries > 3) return;
    if (el && r && r.height > 0) el.scrollIntoView({ block: "center" });
    else {
      scrollToEntry(entryId);
      mine = scrollTarget.peek()?.nonce;
    }
    setTimeout(check, 350);
  };
  setTimeout(check, 350);
}
