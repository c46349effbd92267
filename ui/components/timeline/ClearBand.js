/**
 * A `/clear` in the conversation (a `system` entry with `meta.kind === "clear"`): a
 * full-width divider "Conversation cleared"; the model does not see what is above it.
 *
 * @typedef {import("../../../protocol/index.ts").Entry} Entry
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { shortTime } from "../format.js";

/** @param {{entry: Entry}} props */
export function ClearBand({ entry }) {
  return html`
    <div
      class="compact-band clear-band"
      role="separator"
      aria-label=${t("cmd.band.cleared")}
      data-testid="clear-band"
      data-entry-id=${entry.id}
      title=${t("cmd.band.hint")}
    >
      <div class="compact-head">
        <span class="compact-line" aria-hidden="true"></span>
        <span class="compact-label">${t("cmd.band.cleared")} · ${shortTime(entry.createdAt)}</span>
        <span class="compact-line" aria-hidden="true"></span>
      </div>
      <p class="clear-hint">${t("cmd.band.hint")}</p>
    </div>
  `;
}
