/**
 * Find in conversation (Ctrl/Cmd+F): a floating bar with the query, the
 * "n/N" count, previous/next (Shift+Enter / Enter) and close (Esc).
 */
import { useEffect, useRef } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { findOpen } from "../../state/overlays.js";
import {
  closeFind,
  findIndex,
  findMatches,
  findQuery,
  findStep,
  openFind,
  setFindQuery,
} from "../../state/find.js";
import { currentId } from "../../state/tasks.js";
import { IconClose } from "../Icons.js";
import { IconDown, IconFind, IconSearch, IconUp } from "./SearchIcons.js";

/** Bumped to (re)focus the bar's input (Ctrl/Cmd+F while it is open). */
let focusBar = () => {};

/** Opens the bar (when a task is shown) and focuses its input. */
export function showFind() {
  if (!openFind()) return false;
  queueMicrotask(() => focusBar());
  setTimeout(() => focusBar(), 30);
  return true;
}

export function FindBar() {
  return findOpen.value && currentId.value !== null ? html`<${Bar} />` : null;
}

function Bar() {
  const input = useRef(/** @type {HTMLInputElement|null} */ (null));
  useEffect(() => {
    focusBar = () => {
      input.current?.focus();
      input.current?.select();
    };
    focusBar();
    return () => {
      focusBar = () => {};
    };
  }, []);
  const n = findMatches.value.length;
  const i = findIndex.value;
  const q = findQuery.value.trim();
  const count = !q ? "" : n === 0 ? t("find.none") : t("find.count", { i: i + 1, n });
  const onKey = (/** @type {KeyboardEvent} */ e) => {
    if (e.isComposing) return;
    if (e.key === "Enter") {
      e.preventDefault();
      findStep(e.shiftKey ? -1 : 1);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      closeFind();
    }
  };
  return html`
    <div class="find-bar" role="search" aria-label=${t(
      "find.label",
    )} data-testid="find-bar" data-find-skip>
      <span class="find-icon"><${IconSearch} size=${16} /></span>
      <input
        ref=${input}
        class="find-input"
        type="text"
        aria-label=${t("find.label")}
        placeholder=${t("find.placeholder")}
        data-testid="find-input"
        maxlength="200"
        value=${findQuery.value}
        onInput=${(/** @type {Event & {currentTarget: HTMLInputElement}} */ e) =>
          setFindQuery(e.currentTarget.value)}
        onKeyDown=${onKey}
      />
      <span class="find-count" data-testid="find-count" aria-live="polite"
        data-empty=${q && n === 0 ? "true" : "false"}>${count}</span>
      <button
        type="button"
        class="icon-btn"
        aria-label=${t("find.prev")}
        title=${t("find.prev")}
        data-testid="find-prev"
        disabled=${n === 0}
        onClick=${() => findStep(-1)}
      >
        <${IconUp} size=${16} />
      </button>
      <button
        type="button"
        class="icon-btn"
        aria-label=${t("find.next")}
        title=${t("find.next")}
        data-testid="find-next"
        disabled=${n === 0}
        onClick=${() => findStep(1)}
      >
        <${IconDown} size=${16} />
      </button>
      <button
        type="button"
        class="icon-btn"
        aria-label=${t("find.close")}
        title=${t("find.close")}
        data-testid="find-close"
        onClick=${closeFind}
      >
        <${IconClose} size=${16} />
      </button>
    </div>
  `;
}

/** The header's button that opens the find bar (phones have no Ctrl+F). */
export function FindButton() {
  if (currentId.value === null) return null;
  return html`
    <button
      type="button"
      class="icon-btn find-open"
      data-testid="find-open"
      aria-label=${t("find.open")}
      title=${t("find.open")}
      aria-expanded=${findOpen.value ? "true" : "false"}
      onClick=${() => (findOpen.value ? closeFind() : showFind())}
    >
      <${IconFind} />
    </button>
  `;
}
