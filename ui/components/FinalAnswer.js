/**
 * The final answer of a finished turn (the trailing text of its last assistant
 * entry), shown outside the collapsed process, as Markdown.
 *
 * @typedef {import("../state/timeline_model.js").FinalAnswer} Final
 */
import { html } from "../html.js";
import { Markdown } from "./Markdown.js";

/** @param {{final: Final}} props */
export function FinalAnswer({ final }) {
  const { entry, parts } = final;
  const text = parts.map((i) => entry.parts[i].text ?? "").join("\n\n");
  return html`
    <article
      class="final-answer"
      data-testid="final-answer"
      data-entry-id=${entry.id}
      data-status=${entry.status}
    >
      <${Markdown} text=${text} />
    </article>
  `;
}
