/** The small "Demo" badge shown while the Demo model (no key, scripted) is in use. */
import { html } from "../html.js";
import { t } from "../i18n/index.js";

export function DemoBadge() {
  return html`
    <span class="demo-badge" data-testid="demo-badge" title=${t("demo.title")}>
      ${t("demo.badge")}
    </span>
  `;
}
