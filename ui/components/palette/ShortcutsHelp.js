/** The list of keyboard shortcuts (`?` outside text fields, or from the palette). */
import { useRef } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { SHORTCUTS } from "../../state/palette_model.js";
import { closeOverlay } from "../../state/palette.js";
import { IconClose } from "../Icons.js";
import { useModalFocus } from "../useModalFocus.js";
import { Keys } from "./Keys.js";

/** @type {Record<string, import("../../i18n/index.js").MsgKey>} */
const LABEL = {
  palette: "palette.sc.palette",
  search: "palette.sc.search",
  find: "palette.sc.find",
  shortcuts: "palette.sc.shortcuts",
  prevQuestion: "palette.sc.prevQuestion",
  nextQuestion: "palette.sc.nextQuestion",
};

/** Keys of other parts of the app, shown for completeness (they are not global). */
/** @type {{label: import("../../i18n/index.js").MsgKey, keys: string}[]} */
const LOCAL = [
  { label: "palette.key.send", keys: "Enter" },
  { label: "palette.key.newline", keys: "Shift+Enter" },
  { label: "palette.key.history", keys: "ArrowUp" },
  { label: "palette.key.close", keys: "Escape" },
];

export function ShortcutsHelp() {
  const close = useRef(/** @type {HTMLButtonElement|null} */ (null));
  useModalFocus(close, closeOverlay);
  return html`
    <div class="search-backdrop" data-testid="shortcuts-backdrop" onClick=${closeOverlay}>
      <div
        class="search-dialog pal-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        data-testid="shortcuts"
        onClick=${(/** @type {Event} */ e) => e.stopPropagation()}
      >
        <div class="search-head">
          <h2 id="shortcuts-title" class="pal-heading">${t("palette.shortcuts")}</h2>
          <button
            ref=${close}
            type="button"
            class="icon-btn"
            aria-label=${t("palette.close")}
            data-testid="shortcuts-close"
            onClick=${closeOverlay}
          >
            <${IconClose} />
          </button>
        </div>
        <dl class="pal-shortcuts">
          ${SHORTCUTS.map((s) =>
            html`
              <div class="pal-shortcut" data-testid="shortcut-row" data-shortcut=${s.id}>
                <dt>${t(LABEL[s.id] ?? "palette.shortcuts")}</dt>
                <dd>
                  <${Keys} keys=${s.keys} />
                </dd>
              </div>
            `
          )}
        </dl>
        <h3 class="pal-sub">${t("palette.composerKeys")}</h3>
        <dl class="pal-shortcuts">
          ${LOCAL.map((s) =>
            html`
              <div class="pal-shortcut">
                <dt>${t(s.label)}</dt>
                <dd>
                  <${Keys} keys=${s.keys} />
                </dd>
              </div>
            `
          )}
        </dl>
        <p class="search-keys">${t("palette.shortcutsNote")}</p>
      </div>
    </div>
  `;
}
