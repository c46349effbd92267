/**
 * The final answer of a finished turn (the trailing text of its last assistant
 * entry), shown outside the collapsed process, as Markdown, with its actions (copy,
 * retry, branch) and time below.
 *
 * @typedef {import("../state/timeline_model.js").FinalAnswer} Final
 */
import { html } from "../html.js";
import { Markdown } from "./Markdown.js";
import { AnswerActions } from "./timeline/AnswerActions.js";
import { ReadOnlyContext } from "./timeline/readonly.js";
import { useContext } from "preact/hooks";

/** @param {{final: Final}} props */
export function FinalAnswer({ final }) {
  const { entry, parts } = final;
  const text = parts.map((i) => entry.parts[i].text ?? "").join("\n\n");
  const at = Number(entry.meta?.endedAt) || entry.updatedAt || entry.createdAt;
  const readOnly = useContext(ReadOnlyContext);
  return html`
    <div class="final-wrap" data-testid="final">
      <article
        class="final-answer"
        data-testid="final-answer"
        data-entry-id=${entry.id}
        data-status=${entry.status}
      >
        <${Markdown} text=${text} />
      </article>
      ${!readOnly && html`<${AnswerActions} entryId=${entry.id} text=${() => text} at=${at} />`}
    </div>
  `;
}
