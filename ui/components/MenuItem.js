/** One choice in a {@link Menu}: icon, title, optional description and badges, a check. */
import { html } from "../html.js";
import { IconCheck } from "./RunIcons.js";

/**
 * @param {{checked: boolean, title: string, desc?: string, icon?: any, badges?: any,
 *   tone?: string, testid?: string, value?: string, disabled?: boolean,
 *   role?: string, onSelect: () => void}} props `role` "menuitem" for actions.
 */
export function MenuItem(
  { checked, title, desc, icon, badges, tone = "", testid, value, disabled, role, onSelect },
) {
  return html`
    <button
      type="button"
      role=${role ?? "menuitemradio"}
      aria-checked=${role ? undefined : checked ? "true" : "false"}
      disabled=${disabled}
      class=${`opt-item ${tone}`}
      data-testid=${testid}
      data-value=${value}
      onClick=${onSelect}
    >
      ${icon && html`<span class="mi-icon">${icon}</span>`}
      <span class="mi-text">
        <span class="mi-title">${title}</span>
        ${desc && html`<span class="mi-desc">${desc}</span>`}
      </span>
      ${badges && html`<span class="mi-badges">${badges}</span>`}
      <span class="mi-check">${checked && html`<${IconCheck} size=${16} />`}</span>
    </button>
  `;
}
