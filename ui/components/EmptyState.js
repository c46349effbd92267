/** The new-task view: a welcome and quick-action cards that prefill (never send). */
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { prefill } from "../state/ui.js";
import { IconBug, IconCalendar, IconCode } from "./Icons.js";

const QUICK = /** @type {const} */ ([
  { id: "weekly", Icon: IconCalendar },
  { id: "debug", Icon: IconBug },
  { id: "feature", Icon: IconCode },
]);

export function EmptyState() {
  return html`
    <div class="empty" data-testid="empty-state">
      <div class="empty-inner">
        <span class="brand-mark brand-mark-lg" aria-hidden="true">R</span>
        <h2 class="empty-title">${t("empty.title")}</h2>
        <p class="empty-sub">${t("empty.subtitle")}</p>
        <div class="quick-cards">
          ${QUICK.map(({ id, Icon }) =>
            html`
              <button
                type="button"
                class="quick-card"
                data-testid="quick-action"
                data-action=${id}
                onClick=${() => prefill(t(/** @type {const} */ (`quick.${id}.fill`)))}
              >
                <span class="quick-icon"><${Icon} size=${18} /></span>
                <span class="quick-title">${t(/** @type {const} */ (`quick.${id}.title`))}</span>
                <span class="quick-desc">${t(/** @type {const} */ (`quick.${id}.desc`))}</span>
              </button>
            `
          )}
        </div>
      </div>
    </div>
  `;
}
