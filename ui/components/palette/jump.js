/**
 * Jumping between the user's questions of the shown task: which question is at the top
 * of the timeline now (read from the rendered turns; the timeline is virtualised, so
 * only turns near the view are in the DOM), and scrolling to the previous / next one
 * through `scrollToEntry` (which loads and renders a question not in the DOM).
 */
import { entries } from "../../state/tasks.js";
import { scrollToEntry } from "../../state/overlays.js";
import { questionsOf, stepQuestion } from "../../state/navigator_model.js";

/**
 * Id of the user message whose turn crosses the middle of the timeline (a jump
 * centres its target), if rendered; with `userTop`, how far that message's top is
 * above the middle (px, positive = above).
 */
export function questionInView() {
  const tl = document.querySelector("[data-testid=timeline]");
  if (!tl) return null;
  const box = tl.getBoundingClientRect();
  const mid = box.top + box.height / 2;
  for (const el of tl.querySelectorAll("[data-testid=turn]")) {
    const r = el.getBoundingClientRect();
    if (r.bottom < mid) continue;
    const id = /** @type {HTMLElement} */ (el).dataset.turnId ?? null;
    const user = id ? el.querySelector(`[data-entry-id="${CSS.escape(id)}"]`) : null;
    const top = (user ?? el).getBoundingClientRect().top;
    return id ? { id, userTop: mid - top } : null;
  }
  return null;
}

/** @param {-1|1} dir */
export function jumpQuestion(dir) {
  const qs = questionsOf(entries.value);
  const here = questionInView();
  let to = stepQuestion(qs, here?.id ?? null, dir);
  // Deep inside a long turn, "previous" first goes back to the start of this one.
  if (dir < 0 && here && here.userTop > 120 && qs.some((q) => q.id === here.id)) to = here.id;
  if (to) scrollToEntry(to);
}
