/**
 * The head of a sidebar section (Projects, Tasks): drag handle, a toggle that
 * collapses the section (chevron + label), and the section's own buttons.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { layout, moveSection, saveSectionOrder } from "../../state/projects.js";
import { ReorderHandle } from "./ReorderHandle.js";
import { IconChevronRight } from "./icons.js";

/**
 * @param {{id: "projects"|"tasks", label: string, collapsed: boolean, count: number,
 *   onToggle: () => void, children?: any}} props
 */
export function SectionHead({ id, label, collapsed, count, onToggle, children }) {
  const order = layout.value.order;
  const index = order.indexOf(id);
  return html`
    <div class="sb-section-head">
      <${ReorderHandle}
        label=${t("projects.moveSection", { name: label })}
        name=${label}
        index=${index}
        count=${order.length}
        testid=${`reorder-${id}`}
        onMove=${(/** @type {number} */ to) => moveSection(id, to)}
        onDrop=${saveSectionOrder}
      />
      <button
        type="button"
        class="sb-section-toggle"
        data-testid=${`toggle-${id}`}
        aria-expanded=${collapsed ? "false" : "true"}
        aria-controls=${`section-body-${id}`}
        onClick=${onToggle}
      >
        <span class="chevron" data-open=${collapsed ? "false" : "true"}>
          <${IconChevronRight} size=${14} />
        </span>
        <span class="sb-section-label">${label}</span>
        ${collapsed && count > 0 && html`<span class="sb-count">${count}</span>`}
      </button>
      ${children}
    </div>
  `;
}
