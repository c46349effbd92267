/**
 * The effective keyboard shortcuts: the registry (palette_model.js) with the user's
 * bindings, kept in this browser's storage like the theme. A stored value that cannot
 * be read is left as it is (not overwritten) until the user changes a binding.
 */
import { signal } from "@preact/signals";
import { applyBindings, bindingProblem, SHORTCUTS } from "./palette_model.js";

const KEY = "reinagent.shortcuts";

/** @returns {Record<string, string>} the stored bindings (empty when none or unreadable) */
function loadSaved() {
  try {
    const raw = localStorage.getItem(KEY);
    const v = raw ? JSON.parse(raw) : null;
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {}; // storage disabled, or not JSON
  }
}

let saved = loadSaved();
/** @type {import("@preact/signals").Signal<import("./palette_model.js").Shortcut[]>} */
export const shortcutList = signal(applyBindings(saved).list);

/** The chord of shortcut `id` now, if registered. @param {string} id */
export function keyOf(id) {
  return shortcutList.value.find((s) => s.id === id)?.keys;
}

function persist() {
  try {
    if (Object.keys(saved).length) localStorage.setItem(KEY, JSON.stringify(saved));
    else localStorage.removeItem(KEY);
  } catch {
    // storage disabled: the binding lasts for this page only
  }
  shortcutList.value = applyBindings(saved).list;
}

/**
 * Binds shortcut `id` to `keys`; returns why not (nothing changes then), or null.
 * @param {string} id
 * @param {string} keys
 */
export function rebind(id, keys) {
  const problem = bindingProblem(shortcutList.value, id, keys);
  if (problem) return problem;
  const base = SHORTCUTS.find((s) => s.id === id)?.keys;
  const next = { ...saved };
  if (keys === base) delete next[id];
  else next[id] = keys;
  saved = next;
  persist();
  return null;
}

/** Back to the default bindings. */
export function resetBindings() {
  saved = {};
  persist();
}

/** Whether any binding differs from the default. */
export function customised() {
  return shortcutList.value.some((s) => SHORTCUTS.find((d) => d.id === s.id)?.keys !== s.keys);
}
