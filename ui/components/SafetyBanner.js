/**
 * Safety notices: when any client lowers a safety setting (sandbox, network, approval
 * mode, an "always allow" rule, what commands may see), every open window says who did
 * it and what changed, until dismissed.
 */
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { dismissSafety, safetyNotices } from "../state/safety.js";
import { changeText } from "../state/safety_model.js";
import { IconClose } from "./Icons.js";
import { clientText, shortTime } from "./format.js";

export function SafetyBanner() {
  return safetyNotices.value.map((n) =>
    html`
      <div class="banner banner-warn banner-safety" role="alert" data-testid="safety-notice"
        key=${n.id}>
        <div class="banner-body">
          <p class="banner-strong">${t("safety.notice", {
            by: clientText(n.by, true),
            time: shortTime(n.at),
          })}</p>
          <ul class="safety-changes">
            ${n.changes.map((c) => {
              const { key, params } = changeText(c, (k) => t(/** @type {any} */ (k)));
              return html`<li>${t(/** @type {any} */ (key), params)}</li>`;
            })}
          </ul>
        </div>
        <button
          type="button"
          class="icon-btn"
          aria-label=${t("error.dismiss")}
          title=${t("error.dismiss")}
          onClick=${() => dismissSafety(n.id)}
        >
          <${IconClose} size=${16} />
        </button>
      </div>
    `
  );
}
