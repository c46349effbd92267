/**
 * "This project's .reinagent/config.json has hooks": each command that would run, with
 * Trust (binding to exactly these hooks) and Not now. Untrusted hooks never run; a
 * config changed after trusting is asked again.
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { dismissHookOffer, hookOffer, trustHooks } from "../../state/hooks.js";
import { settingsOpen, settingsTab } from "../../state/settings.js";
import { SourceHooks } from "./HookList.js";

export function HooksBanner() {
  const offer = hookOffer.value;
  const [error, setError] = useState(/** @type {string|null} */ (null));
  // Settings → Hooks lists the same with its own Trust button.
  if (!offer || (settingsOpen.value && settingsTab.value === "hooks")) return null;
  const key = offer.state === "changed" ? "hooks.offer.changed" : "hooks.offer.text";
  return html`
    <div class="banner banner-warn hook-offer" role="region" data-testid="hooks-trust-prompt"
      data-state=${offer.state} aria-label=${t("hooks.offer.title")}>
      <div class="hook-offer-body">
        <p class="banner-strong">${t(key, { file: offer.path, n: offer.hooks.length })}</p>
        <p class="hook-offer-why">${t("hooks.offer.why")}</p>
        <${SourceHooks} source=${offer} />
        ${error && html`<p class="form-error" role="alert">${error}</p>`}
        <div class="field-row">
          <button type="button" class="btn btn-accent btn-small" data-testid="hooks-trust"
            onClick=${async () => setError(await trustHooks(offer))}>${t("hooks.trust")}</button>
          <button type="button" class="btn btn-small" data-testid="hooks-dismiss"
            onClick=${dismissHookOffer}>${t("hooks.offer.dismiss")}</button>
        </div>
      </div>
    </div>
  `;
}
