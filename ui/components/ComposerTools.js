/** The composer's option toolbar: model, reasoning effort and approval mode. */
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { ApprovalMenu } from "./ApprovalMenu.js";
import { EffortMenu } from "./EffortMenu.js";
import { ModelMenu } from "./ModelMenu.js";
import { ContextRing } from "./search/ContextRing.js";

export function ComposerTools() {
  return html`
    <div class="composer-tools" role="toolbar" aria-label=${t(
      "tools.label",
    )} data-testid="composer-tools">
      <${ModelMenu} />
      <${EffortMenu} />
      <${ApprovalMenu} />
      <${ContextRing} />
    </div>
  `;
}
