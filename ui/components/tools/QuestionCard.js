/**
 * ask_user_question: while the call waits, the question form (tabs, options, Other,
 * Submit / Skip); once answered, a compact summary of the answers the result recorded
 * (shown open); skipped or stopped calls say so. Before any result, the questions.
 *
 * @typedef {import("./card_props.js").CardProps} CardProps
 * @typedef {import("../../state/interact_model.js").Question} Question
 * @typedef {import("../../state/interact_model.js").QAnswer} QAnswer
 */
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import {
  questionsOf,
  recordedAnswers,
  refusalMessage,
  refusalOf,
  tabLabel,
} from "../../state/interact_model.js";
import { resultMeta, resultText } from "../../state/tool_model.js";
import { QuestionForm } from "../interact/QuestionForm.js";
import { CardShell } from "./CardShell.js";

/** @param {{answers: QAnswer[], questions: Question[]}} props */
function AnswerSummary({ answers, questions }) {
  return html`
    <dl class="qa-summary" data-testid="question-summary">
      ${answers.map((a) => {
        const k = questions.findIndex((q) => q.question === a.question);
        return html`
          <div class="qa-row">
            <dt title=${a.question}>${k >= 0 ? tabLabel(questions[k], k) : a.question}</dt>
            <dd data-testid="question-answer">${a.answers.length
              ? a.answers.join(" · ")
              : t("ask.noAnswer")}</dd>
          </div>
        `;
      })}
    </dl>
  `;
}

/** @param {{questions: Question[]}} props */
function QuestionList({ questions }) {
  return html`
    <ol class="qa-list">
      ${questions.map((q) =>
        html`<li>${q.question} <span class="qa-opts">(${
          q.options.map((o) => o.label).join(" / ")
        })</span></li>`
      )}
    </ol>
  `;
}

/** @param {CardProps} props */
export function QuestionCard({ name, args, result, status, ms, approval, receiving }) {
  const questions = questionsOf(args);
  const answers = status === "done"
    ? recordedAnswers(resultMeta(result, ["ask_user_question"]))
    : [];
  const text = resultText(result);
  const why = status === "failed" || status === "refused" ? refusalOf(result) : null;
  const skipped = why?.code === "questions_skipped";
  const stopped = why?.code === "stopped" || why?.code === "interrupted";
  const badge = answers.length
    ? html`<span class="tool-badge tone-ok" data-testid="question-badge">${
      t("ask.answered")
    }</span>`
    : skipped || stopped
    ? html`<span class="tool-badge tone-warn" data-testid="question-badge">${
      t(skipped ? "ask.skipped" : "ask.stopped")
    }</span>`
    : null;
  const said = why ? refusalMessage(why) : null;
  const body = answers.length
    ? () => html`<${AnswerSummary} answers=${answers} questions=${questions} />`
    : result && said
    ? () =>
      html`<p class="tool-refusal" data-testid="tool-refusal" data-code=${why?.code}>${
        t(/** @type {any} */ (said.key), said.params)
      }</p>`
    : result
    ? () =>
      html`<pre class="tool-out tool-out-error" data-testid="tool-output">${
        text || t("tool.noOutput")
      }</pre>`
    : questions.length
    ? () => html`<${QuestionList} questions=${questions} />`
    : null;
  return html`
    <${CardShell}
      name=${name}
      kind="question"
      status=${status}
      summary=${questions.length ? tn("ask.summary", questions.length) : ""}
      badges=${badge}
      ms=${ms}
      approval=${approval}
      receiving=${receiving}
      open=${answers.length > 0}
      body=${body}
      pending=${approval && html`<${QuestionForm} approval=${approval} questions=${questions} />`}
    />
  `;
}
