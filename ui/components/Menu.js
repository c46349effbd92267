/**
 * A button with a popup menu: a popover above the button on wide screens, a bottom
 * sheet with a backdrop under 768 px (CSS). Esc and a click outside close it; ↑/↓
 * move between items; focus returns to the button. `children(close)` renders items.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { IconX } from "./RunIcons.js";

/**
 * @param {{testid: string, title: string, value: string, button: any, tone?: string,
 *   wrapClass?: string, wrapStyle?: string,
 *   onOpen?: () => void, children: (close: () => void) => any}} props
 *   `value` names the current choice for the button's accessible name and tooltip
 *   (empty for a menu of actions); `wrapClass`/`wrapStyle` go on the outer box.
 */
export function Menu(
  { testid, title, value, button, tone = "", wrapClass = "", wrapStyle, onOpen, children },
) {
  const [open, setOpen] = useState(false);
  const btn = useRef(/** @type {HTMLButtonElement|null} */ (null));
  const pop = useRef(/** @type {HTMLDivElement|null} */ (null));
  const close = (focus = true) => {
    setOpen(false);
    if (focus) btn.current?.focus({ preventScroll: true });
  };

  useEffect(() => {
    if (!open) return;
    const items = () => /** @type {HTMLElement[]} */ ([
      ...(pop.current?.querySelectorAll("[role^=menuitem]") ?? []),
    ]);
    const start = items().find((el) => el.getAttribute("aria-checked") === "true") ?? items()[0];
    start?.focus({ preventScroll: true });
    start?.scrollIntoView?.({ block: "nearest" });
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        close();
      } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        const list = items();
        if (!list.length) return;
        e.preventDefault();
        const i = list.indexOf(/** @type {HTMLElement} */ (document.activeElement));
        const next = e.key === "ArrowDown"
          ? (i + 1) % list.length
          : (i - 1 + list.length) % list.length;
        list[next].focus();
      } else if (e.key === "Tab") close(false);
    };
    const onDown = (/** @type {PointerEvent} */ e) => {
      const target = /** @type {Node} */ (e.target);
      if (!pop.current?.contains(target) && !btn.current?.contains(target)) close(false);
    };
    document.addEventListener("keydown", onKey, true);
    document.addEventListener("pointerdown", onDown, true);
    return () => {
      document.removeEventListener("keydown", onKey, true);
      document.removeEventListener("pointerdown", onDown, true);
    };
  }, [open]);

  return html`
    <div class=${`opt-wrap ${wrapClass}`} style=${wrapStyle}>
      <button
        ref=${btn}
        type="button"
        class=${`tool-btn ${tone}`}
        data-testid=${testid}
        aria-haspopup="menu"
        aria-expanded=${open ? "true" : "false"}
        aria-label=${value ? `${title}: ${value}` : title}
        title=${value ? `${title}: ${value}` : title}
        onClick=${() => {
          if (!open) onOpen?.();
          setOpen(!open);
        }}
      >
        ${button}
      </button>
      ${open &&
        html`
          <div class="opt-backdrop" aria-hidden="true" onClick=${() => close(false)}></div>
          <div class="opt-pop" role="menu" ref=${pop} aria-label=${title} data-testid=${`${testid}-menu`}>
            <div class="opt-head">
              <span class="opt-title">${title}</span>
              <button
                type="button"
                class="icon-btn opt-close"
                aria-label=${t("tools.close")}
                onClick=${() => close()}
              >
                <${IconX} size=${16} />
              </button>
            </div>
            <div class="opt-body">${children(close)}</div>
          </div>
        `}
    </div>
  `;
}
