/**
 * A modal dialog: centred on wide screens, a bottom sheet under 768 px (CSS). Focus
 * moves into it and stays there (Tab cycles), Esc and the backdrop close it, and focus
 * returns to where it was.
 */
import { useEffect, useRef } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { IconX } from "../RunIcons.js";

const FOCUSABLE = "button:not(:disabled), [href], input:not(:disabled), textarea, [tabindex='0']";

/**
 * @param {{title: string, testid: string, onClose: () => void, children: any,
 *   footer?: any}} props
 */
export function Dialog({ title, testid, onClose, children, footer }) {
  const ref = useRef(/** @type {HTMLDivElement|null} */ (null));
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const before = /** @type {HTMLElement|null} */ (document.activeElement);
    ref.current?.focus({ preventScroll: true });
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      const box = ref.current;
      if (!box) return;
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        close.current();
      } else if (e.key === "Tab") {
        const list = /** @type {HTMLElement[]} */ ([...box.querySelectorAll(FOCUSABLE)]);
        if (!list.length) return e.preventDefault();
        const first = list[0], last = list[list.length - 1];
        const at = document.activeElement;
        if (e.shiftKey && (at === first || at === box)) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && (at === last || !box.contains(at))) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey, true);
    return () => {
      document.removeEventListener("keydown", onKey, true);
      if (before?.isConnected) before.focus({ preventScroll: true });
    };
  }, []);

  const titleId = `${testid}-title`;
  return html`
    <div class="dialog-layer">
      <div class="dialog-backdrop" aria-hidden="true" onClick=${() => close.current()}></div>
      <div
        class="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby=${titleId}
        tabindex="-1"
        ref=${ref}
        data-testid=${testid}
      >
        <div class="dialog-head">
          <h2 class="dialog-title" id=${titleId}>${title}</h2>
          <button
            type="button"
            class="icon-btn"
            data-testid=${`${testid}-close`}
            aria-label=${t("dialog.close")}
            title=${t("dialog.close")}
            onClick=${() => close.current()}
          >
            <${IconX} size=${16} />
          </button>
        </div>
        <div class="dialog-body">${children}</div>
        ${footer && html`<div class="dialog-foot">${footer}</div>`}
      </div>
    </div>
  `;
}
