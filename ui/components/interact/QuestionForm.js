/**
 * The questions of a waiting ask_user_question call: one tab per question
 * (its `header`, else Q1…; a tick once answered), the options as radio rows —
 * checkboxes for multi-select — with the recommended one marked, a free-text "Other"
 * (typing selects it), then Submit (every question answered) or Skip. Picking an
 * option of a single-select question moves on to the next unanswered one.
 *
 * @typedef {import("../../../protocol/index.ts").PendingApproval} PendingApproval
 * @typedef {import("../../state/interact_model.js").Question} Question
 * @typedef {import("../../state/interact_model.js").QState} QState
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { answerQuestions, decide, deciding } from "../../state/approvals.js";
import {
  answersOf,
  buildAnswers,
  emptyState,
  pickOption,
  setOtherOn,
  setOtherText,
  tabLabel,
} from "../../state/interact_model.js";
import { IconAsk, IconCheck } from "../RunIcons.js";

/**
 * @param {{q: Question, s: QState, name: string, onChange: (s: QState, picked?: boolean) => void,
 *   onEnter: () => void}} props
 */
function QuestionPanel({ q, s, name, onChange, onEnter }) {
  const type = q.multi ? "checkbox" : "radio";
  return html`
    <fieldset class="ask-panel" role="tabpanel" data-testid="question-panel">
      <legend class="ask-q">${q.question}</legend>
      ${q.multi && html`<p class="ask-hint">${t("ask.multi")}</p>`}
      ${q.options.map((o) =>
        html`
          <label
            class="ask-opt"
            data-testid="question-option"
            data-checked=${s.picked.includes(o.label) ? "true" : "false"}
          >
            <input
              type=${type}
              name=${name}
              checked=${s.picked.includes(o.label)}
              onChange=${() => onChange(pickOption(s, q, o.label), true)}
            />
            <span class="ask-opt-text">
              <span class="ask-opt-label">${o.label}${o.recommended &&
                html`<span class="ask-rec" data-testid="question-recommended">${
                  t("ask.recommended")
                }</span>`}</span>
              ${o.description && html`<span class="ask-opt-desc">${o.description}</span>`}
            </span>
          </label>
        `
      )}
      <div class="ask-opt ask-other" data-checked=${s.otherOn ? "true" : "false"}>
        <label class="ask-other-label">
          <input
            type=${type}
            name=${name}
            checked=${s.otherOn}
            data-testid="question-other-toggle"
            onChange=${(/** @type {Event} */ e) =>
              onChange(setOtherOn(s, q, /** @type {HTMLInputElement} */ (e.currentTarget).checked))}
          />
          <span class="ask-opt-label">${t("ask.other")}</span>
        </label>
        <input
          type="text"
          class="ask-other-input"
          data-testid="question-other"
          maxlength="4000"
          aria-label=${t("ask.otherLabel")}
          placeholder=${t("ask.otherPlaceholder")}
          value=${s.other}
          onInput=${(/** @type {Event} */ e) =>
            onChange(setOtherText(s, q, /** @type {HTMLInputElement} */ (e.currentTarget).value))}
          onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
            if (e.key !== "Enter" || e.isComposing || e.keyCode === 229) return;
            e.preventDefault();
            onEnter();
          }}
        />
      </div>
    </fieldset>
  `;
}

/** @param {{approval: PendingApproval, questions: Question[]}} props */
export function QuestionForm({ approval, questions }) {
  const [tab, setTab] = useState(0);
  const [states, setStates] = useState(() => questions.map(emptyState));
  const busy = deciding.value.has(approval.id);
  const answered = states.map((s) => answersOf(s).length > 0);
  const count = answered.filter(Boolean).length;
  const complete = questions.length > 0 && count === questions.length;
  const submit = () => {
    if (complete && !busy) answerQuestions(approval.id, buildAnswers(questions, states));
  };
  const i = Math.min(tab, questions.length - 1);

  /**
   * @param {QState} next
   * @param {boolean} [picked] an option was chosen (not "Other")
   */
  const change = (next, picked = false) => {
    const all = states.map((s, k) => (k === i ? next : s));
    setStates(all);
    if (!picked || questions[i].multi) return;
    const after = all.findIndex((s, k) => k > i && answersOf(s).length === 0);
    if (after > i) setTab(after);
  };
  /** Enter in "Other": the next unanswered question, or Submit when all are answered. */
  const enter = () => {
    if (complete) return submit();
    const next = answered.findIndex((a, k) => !a && k !== i);
    if (next >= 0) setTab(next);
  };

  return html`
    <div class="ask" data-testid="question-card" data-approval-id=${approval.id}>
      <p class="approval-title ask-title">
        <${IconAsk} size=${15} />
        <span>${t("ask.title")}</span>
        <span class="approval-kind" data-testid="question-progress">${t("ask.progress", {
          n: count,
          total: questions.length,
        })}</span>
      </p>
      ${questions.length > 1 &&
        html`
          <div class="ask-tabs" role="tablist" aria-label=${t("ask.title")}>
            ${questions.map((q, k) =>
              html`
                <button
                  type="button"
                  role="tab"
                  class="ask-tab"
                  data-testid="question-tab"
                  aria-selected=${k === i ? "true" : "false"}
                  data-answered=${answered[k] ? "true" : "false"}
                  onClick=${() => setTab(k)}
                >
                  ${answered[k] && html`<${IconCheck} size=${13} />`}
                  <span>${tabLabel(q, k)}</span>
                </button>
              `
            )}
          </div>
        `}
      ${questions[i] &&
        html`
          <${QuestionPanel}
            key=${i}
            q=${questions[i]}
            s=${states[i]}
            name=${`${approval.id}-q${i}`}
            onChange=${change}
            onEnter=${enter}
          />
        `}
      <div class="approval-actions">
        <button
          type="button"
          class="ap-btn ap-allow"
          data-testid="question-submit"
          disabled=${busy || !complete}
          onClick=${submit}
        >
          ${t("ask.submit")}
        </button>
        <button
          type="button"
          class="ap-btn"
          data-testid="question-skip"
          title=${t("ask.skipTitle")}
          disabled=${busy}
          onClick=${() => decide(approval.id, "reject")}
        >
          ${t("ask.skip")}
        </button>
        ${!complete && html`<span class="approval-hint">${t("ask.answerAll")}</span>`}
      </div>
    </div>
  `;
}
