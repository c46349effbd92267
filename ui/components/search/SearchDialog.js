/**
 * The search dialog across tasks (Ctrl/Cmd+K): a query box, tasks whose
 * title matches first, then tasks with matching messages and their snippets (match
 * marked). ↑/↓ move, Enter opens, Esc closes. Full-screen on phones.
 *
 * @typedef {import("../../../protocol/index.ts").SearchWindow} SearchWindow
 */
import { useEffect, useRef } from "preact/hooks";
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { searchOpen } from "../../state/overlays.js";
import {
  chooseItem,
  closeSearch,
  moveActive,
  searchActive,
  searchError,
  searchItems,
  searchQuery,
  searchResult,
  searchStatus,
  setSearchQuery,
} from "../../state/search.js";
import { IconClose } from "../Icons.js";
import { IconSearch } from "./SearchIcons.js";

/** @param {{w: SearchWindow}} props */
function Marked({ w }) {
  return html`${w.before}<mark class="search-mark">${w.match}</mark>${w.after}`;
}

export function SearchDialog() {
  return searchOpen.value ? html`<${Dialog} />` : null;
}

function Dialog() {
  const input = useRef(/** @type {HTMLInputElement|null} */ (null));
  const list = useRef(/** @type {HTMLUListElement|null} */ (null));
  const back = useRef(/** @type {Element|null} */ (null));
  useEffect(() => {
    back.current = document.activeElement;
    input.current?.focus();
    input.current?.select();
    return () => {
      const el = /** @type {HTMLElement|null} */ (back.current);
      if (el && el.isConnected && typeof el.focus === "function") el.focus();
    };
  }, []);
  const items = searchItems.value;
  const active = Math.min(searchActive.value, items.length - 1);
  useEffect(() => {
    list.current?.querySelector("[aria-selected=true]")?.scrollIntoView({ block: "nearest" });
  }, [active, searchResult.value]);

  const onKey = (/** @type {KeyboardEvent} */ e) => {
    if (e.isComposing) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      moveActive(e.key === "ArrowDown" ? 1 : -1);
    } else if (e.key === "Enter") {
      e.preventDefault();
      if (items[active]) chooseItem(items[active]);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      closeSearch();
    }
  };

  const r = searchResult.value;
  const status = searchStatus.value;
  let summary = "";
  if (status === "error") summary = t("search.failed", { error: searchError.value });
  else if (!r) summary = t("search.loading");
  else if (r.mode === "recent") summary = r.tasks.length ? t("search.recent") : t("search.noTasks");
  else if (r.tasks.length === 0) summary = t("search.none", { q: r.q });
  else summary = tn("search.count", r.tasks.length);
  const optId = (/** @type {string} */ key) => `search-opt-${key.replace(/[^\w-]/g, "_")}`;
  let k = -1;
  return html`
    <div class="search-backdrop" data-testid="search-backdrop" onClick=${closeSearch}>
      <div
        class="search-dialog"
        role="dialog"
        aria-modal="true"
        aria-label=${t("search.title")}
        data-testid="search-dialog"
        onClick=${(/** @type {Event} */ e) => e.stopPropagation()}
      >
        <div class="search-head">
          <span class="search-head-icon"><${IconSearch} /></span>
          <input
            ref=${input}
            class="search-input"
            type="search"
            role="combobox"
            aria-expanded="true"
            aria-controls="search-results"
            aria-autocomplete="list"
            aria-activedescendant=${items[active] ? optId(items[active].key) : undefined}
            aria-label=${t("search.title")}
            placeholder=${t("search.placeholder")}
            data-testid="search-input"
            maxlength="200"
            value=${searchQuery.value}
            onInput=${(/** @type {Event & {currentTarget: HTMLInputElement}} */ e) =>
              setSearchQuery(e.currentTarget.value)}
            onKeyDown=${onKey}
          />
          <button
            type="button"
            class="icon-btn"
            aria-label=${t("search.close")}
            data-testid="search-close"
            onClick=${closeSearch}
          >
            <${IconClose} />
          </button>
        </div>
        <p class="search-summary" aria-live="polite" data-testid="search-summary"
          data-status=${status}>
          ${summary}
        </p>
        <ul
          ref=${list}
          id="search-results"
          class="search-results"
          role="listbox"
          aria-label=${t("search.title")}
          data-testid="search-results"
        >
          ${(r?.tasks ?? []).map((task) => {
            k++;
            const ti = k;
            return html`
              <li
                id=${optId(`t:${task.taskId}`)}
                role="option"
                aria-selected=${ti === active ? "true" : "false"}
                class="search-task"
                data-testid="search-task"
                data-task-id=${task.taskId}
                onClick=${() => chooseItem(items[ti])}
                onMouseMove=${() => ti !== active && (searchActive.value = ti)}
              >
                <span class="search-task-title">
                  ${task.titleMatch
                    ? html`<${Marked} w=${task.titleMatch} />`
                    : task.title || t("task.untitled")}
                </span>
                ${task.hits > 0 && html`
                  <span class="search-task-hits">${tn("search.hits", task.hits)}</span>
                `}
              </li>
              ${task.snippets.map((s) => {
                k++;
                const si = k;
                return html`
                  <li
                    id=${optId(`e:${s.entryId}`)}
                    role="option"
                    aria-selected=${si === active ? "true" : "false"}
                    class="search-snippet"
                    data-testid="search-snippet"
                    data-snippet-entry=${s.entryId}
                    onClick=${() => chooseItem(items[si])}
                    onMouseMove=${() => si !== active && (searchActive.value = si)}
                  >
                    <span class="search-role" data-role=${s.role}>${t(
                      s.role === "user" ? "search.role.user" : "search.role.assistant",
                    )}</span>
                    <span class="search-snippet-text"><${Marked} w=${s} /></span>
                  </li>
                `;
              })}
            `;
          })}
        </ul>
        <p class="search-keys" aria-hidden="true">${t("search.keys")}</p>
      </div>
    </div>
  `;
}
