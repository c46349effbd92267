/**
 * The conversation navigator as a list (from the palette, and the way in on
 * phones where the rail is hidden): the user's questions of the task with their first
 * line; ↑/↓ move, Enter or a tap jumps (the timeline loads and renders a question that
 * is virtualised away). Questions older than the loaded page are offered as "Load
 * earlier" — the list only shows what is loaded.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { entries, entriesTotal } from "../../state/tasks.js";
import { loadEarlier, loadingEarlier } from "../../state/history.js";
import { scrollToEntry } from "../../state/overlays.js";
import { questionsOf } from "../../state/navigator_model.js";
import { moveIndex } from "../../state/palette_model.js";
import { closeOverlay } from "../../state/palette.js";
import { IconClose } from "../Icons.js";
import { useModalFocus } from "../useModalFocus.js";
import { questionInView } from "./jump.js";

export function QuestionList() {
  const listRef = useRef(/** @type {HTMLUListElement|null} */ (null));
  useModalFocus(listRef, closeOverlay);
  const qs = questionsOf(entries.value);
  const older = Math.max(0, entriesTotal.value - entries.value.length);
  const [active, setActive] = useState(() => {
    const here = questionInView()?.id;
    const i = qs.findIndex((q) => q.id === here);
    return i >= 0 ? i : qs.length - 1;
  });
  const at = Math.max(0, Math.min(active, qs.length - 1));
  useEffect(() => {
    listRef.current?.querySelector("[aria-selected=true]")?.scrollIntoView({ block: "nearest" });
  }, [at, qs.length]);

  const jump = (/** @type {number} */ i) => {
    const q = qs[i];
    if (!q) return;
    closeOverlay();
    scrollToEntry(q.id);
  };
  const onKey = (/** @type {KeyboardEvent} */ e) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setActive(moveIndex(at, e.key === "ArrowDown" ? 1 : -1, qs.length));
    } else if (e.key === "Home" || e.key === "End") {
      e.preventDefault();
      setActive(e.key === "Home" ? 0 : qs.length - 1);
    } else if (e.key === "Enter") {
      e.preventDefault();
      jump(at);
    }
  };
  return html`
    <div class="search-backdrop" data-testid="questions-backdrop" onClick=${closeOverlay}>
      <div
        class="search-dialog pal-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="questions-title"
        data-testid="questions"
        onClick=${(/** @type {Event} */ e) => e.stopPropagation()}
      >
        <div class="search-head">
          <h2 id="questions-title" class="pal-heading">
            ${t("palette.questions")} <span class="pal-count">${qs.length}</span>
          </h2>
          <button
            type="button"
            class="icon-btn"
            aria-label=${t("palette.close")}
            data-testid="questions-close"
            onClick=${closeOverlay}
          >
            <${IconClose} />
          </button>
        </div>
        ${older > 0 &&
          html`
            <button
              type="button"
              class="pal-older"
              data-testid="questions-load-earlier"
              disabled=${loadingEarlier.value}
              onClick=${() => loadEarlier()}
            >
              ${t("palette.questionsOlder", { n: older })}
            </button>
          `}
        <ul
          ref=${listRef}
          tabindex="0"
          class="search-results pal-list"
          role="listbox"
          aria-label=${t("palette.questions")}
          aria-activedescendant=${qs[at] ? `q-${qs[at].id}` : undefined}
          data-testid="questions-list"
          onKeyDown=${onKey}
        >
          ${qs.map((q, i) =>
            html`
              <li
                id=${`q-${q.id}`}
                role="option"
                aria-selected=${i === at ? "true" : "false"}
                class="pal-row pal-question"
                data-testid="question-item"
                data-entry=${q.id}
                onClick=${() => jump(i)}
              >
                <span class="pal-n">${i + 1}</span>
                <span class="pal-title">${q.line || t("palette.questionEmpty")}</span>
              </li>
            `
          )}
        </ul>
        <p class="search-keys">${t("palette.questionsKeys")}</p>
      </div>
    </div>
  `;
}
