/**
 * The command palette (Ctrl/Cmd+Shift+P — Ctrl/Cmd+K stays search): a
 * fuzzy-filtered list of actions with their shortcuts. ↑/↓ move (wrapping), Enter
 * runs, Esc or a click outside closes. Full-screen on phones.
 */
import { useEffect, useMemo, useRef } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { rankActions } from "../../state/palette_model.js";
import {
  closeOverlay,
  movePalette,
  paletteActive,
  paletteQuery,
  setPaletteQuery,
} from "../../state/palette.js";
import { IconClose } from "../Icons.js";
import { useModalFocus } from "../useModalFocus.js";
import { paletteActions } from "./actions.js";
import { Keys } from "./Keys.js";

/** Rows shown at most (the query narrows the rest). */
const ROWS_MAX = 80;

/** @param {{text: string, hits: number[]}} props */
function Marked({ text, hits }) {
  if (!hits.length) return text;
  const set = new Set(hits);
  return [...text].map((c, i) => set.has(i) ? html`<mark class="pal-mark">${c}</mark>` : c);
}

export function CommandPalette() {
  const input = useRef(/** @type {HTMLInputElement|null} */ (null));
  const list = useRef(/** @type {HTMLUListElement|null} */ (null));
  useModalFocus(input, closeOverlay);
  const actions = useMemo(paletteActions, []);
  const q = paletteQuery.value;
  const rows = useMemo(() => rankActions(actions, q).slice(0, ROWS_MAX), [actions, q]);
  const active = Math.min(paletteActive.value, rows.length - 1);
  useEffect(() => {
    list.current?.querySelector("[aria-selected=true]")?.scrollIntoView({ block: "nearest" });
  }, [active, q]);

  const run = (/** @type {number} */ i) => {
    const row = rows[i];
    if (!row) return;
    closeOverlay();
    row.action.run();
  };
  const onKey = (/** @type {KeyboardEvent} */ e) => {
    if (e.isComposing) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      movePalette(e.key === "ArrowDown" ? 1 : -1, rows.length);
    } else if (e.key === "Enter") {
      e.preventDefault();
      run(active);
    }
  };
  const optId = (/** @type {string} */ id) => `pal-opt-${id.replace(/[^\w-]/g, "_")}`;
  return html`
    <div class="search-backdrop" data-testid="palette-backdrop" onClick=${closeOverlay}>
      <div
        class="search-dialog pal-dialog"
        role="dialog"
        aria-modal="true"
        aria-label=${t("palette.title")}
        data-testid="palette"
        onClick=${(/** @type {Event} */ e) => e.stopPropagation()}
      >
        <div class="search-head">
          <span class="pal-prompt" aria-hidden="true">›</span>
          <input
            ref=${input}
            class="search-input"
            type="text"
            role="combobox"
            aria-expanded="true"
            aria-controls="palette-list"
            aria-autocomplete="list"
            aria-activedescendant=${rows[active] ? optId(rows[active].action.id) : undefined}
            aria-label=${t("palette.title")}
            placeholder=${t("palette.placeholder")}
            data-testid="palette-input"
            maxlength="100"
            autocomplete="off"
            spellcheck=${false}
            value=${q}
            onInput=${(/** @type {Event & {currentTarget: HTMLInputElement}} */ e) =>
              setPaletteQuery(e.currentTarget.value)}
            onKeyDown=${onKey}
          />
          <button
            type="button"
            class="icon-btn"
            aria-label=${t("palette.close")}
            data-testid="palette-close"
            onClick=${closeOverlay}
          >
            <${IconClose} />
          </button>
        </div>
        <ul
          ref=${list}
          id="palette-list"
          class="search-results pal-list"
          role="listbox"
          aria-label=${t("palette.title")}
          data-testid="palette-list"
        >
          ${rows.map(({ action, hits }, i) =>
            html`
              <li
                id=${optId(action.id)}
                role="option"
                aria-selected=${i === active ? "true" : "false"}
                class="pal-row"
                data-testid="palette-item"
                data-action=${action.id}
                onMouseMove=${() => i !== active && (paletteActive.value = i)}
                onClick=${() => run(i)}
              >
                <span class="pal-title"><${Marked} text=${action.title} hits=${hits} /></span>
                <span class="pal-group">${action.group}</span>
                <${Keys} keys=${action.shortcut} />
              </li>
            `
          )}
          ${rows.length === 0 &&
            html`<li class="pal-none" data-testid="palette-none">${t("palette.none")}</li>`}
        </ul>
        <p class="search-keys">${t("palette.keys")}</p>
      </div>
    </div>
  `;
}
