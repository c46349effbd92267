/**
 * The shell of the context panel's full-screen viewers (a category's text, the request
 * preview): backdrop, modal dialog with a title, a meta line and Close (focus and Escape
 * handled), and the viewer's body as children.
 */
import { useRef } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { IconClose } from "../Icons.js";
import { useModalFocus } from "../useModalFocus.js";

/**
 * @param {{title: string, meta?: unknown, onClose: () => void, testid: string,
 *   closeTestid: string, extraClass?: string, attrs?: Record<string, string>,
 *   children?: unknown}} props
 */
export function ViewerDialog(props) {
  const closeBtn = useRef(/** @type {HTMLButtonElement|null} */ (null));
  useModalFocus(closeBtn, props.onClose);
  return html`
    <div class="search-backdrop" onClick=${props.onClose}>
      <div
        class=${`ctx-viewer${props.extraClass ? ` ${props.extraClass}` : ""}`}
        role="dialog"
        aria-modal="true"
        aria-label=${props.title}
        data-testid=${props.testid}
        ...${props.attrs ?? {}}
        onClick=${(/** @type {Event} */ e) => e.stopPropagation()}
      >
        <div class="ctx-viewer-head">
          <div class="ctx-viewer-title">
            <strong>${props.title}</strong>
            ${props.meta}
          </div>
          <button
            ref=${closeBtn}
            type="button"
            class="icon-btn"
            aria-label=${t("ctx.viewer.close")}
            data-testid=${props.closeTestid}
            onClick=${props.onClose}
          >
            <${IconClose} />
          </button>
        </div>
        ${props.children}
      </div>
    </div>
  `;
}
