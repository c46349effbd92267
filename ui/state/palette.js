/**
 * Which palette overlays are open (command palette, shortcut help, questions list,
 * trajectory) and the palette's query and highlighted row. Opening one closes the
 * others: one overlay at a time.
 */
import { signal } from "@preact/signals";
import { moveIndex, QUERY_MAX } from "./palette_model.js";
import { searchOpen } from "./overlays.js";

/** @typedef {"palette"|"shortcuts"|"questions"|"trajectory"} PaletteOverlay */

/** The overlay shown, or null. */
export const overlay = signal(/** @type {PaletteOverlay|null} */ (null));
export const paletteQuery = signal("");
export const paletteActive = signal(0);

/** macOS shows ⌘ and uses Meta for `Mod`. */
export const isMac = typeof navigator !== "undefined" &&
  /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent || "");

/** @param {PaletteOverlay} which */
export function openOverlay(which) {
  if (which === "palette") {
    paletteQuery.value = "";
    paletteActive.value = 0;
  }
  searchOpen.value = false; // one overlay at a time
  overlay.value = which;
}

export function closeOverlay() {
  overlay.value = null;
}

/** @param {string} q */
export function setPaletteQuery(q) {
  paletteQuery.value = q.slice(0, QUERY_MAX);
  paletteActive.value = 0;
}

/** @param {number} delta @param {number} count */
export function movePalette(delta, count) {
  paletteActive.value = moveIndex(paletteActive.value, delta, count);
}
