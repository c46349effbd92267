/** Icons of skills and prompt enhancement (stroke, `currentColor`). */
import { html } from "../../html.js";
import { Icon } from "../Icons.js";

/** @typedef {{size?: number}} P */
/** A book with a bookmark: a skill's instructions. */
export const IconSkills = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${[
    "M4 19.5A2.5 2.5 0 016.5 17H20V3H6.5A2.5 2.5 0 004 5.5v14z",
    "M4 19.5A2.5 2.5 0 006.5 22H20v-5",
    "M9 3v7l2.5-1.5L14 10V3",
  ]} />`;
/** Sparkles: improve the prompt. */
export const IconSparkles = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${[
    "M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8z",
    "M19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z",
  ]} />`;
/** A curved arrow back: undo. */
export const IconUndo = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M9 14L4 9l5-5", "M4 9h10.5a5.5 5.5 0 010 11H11"]} />`;
