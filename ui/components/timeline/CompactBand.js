/**
 * A compaction band (`compact` entry): a full-width divider "Context compacted"; its
 * summary, when there is one, opens below it.
 *
 * @typedef {import("../../../protocol/index.ts").Entry} Entry
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";

/** @param {{entry: Entry}} props */
export function CompactBand({ entry }) {
  const summary = entry.parts.map((p) => p.text ?? "").filter(Boolean).join("\n").trim();
  return html`
    <div
      class="compact-band"
      role="separator"
      aria-label=${t("history.compacted")}
      data-testid="compact-band"
      data-entry-id=${entry.id}
    >
      <details class="compact-inner">
        <summary class="compact-head" title=${t("history.compactedHint")}>
          <span class="compact-line" aria-hidden="true"></span>
          <span class="compact-label">${t("history.compacted")}</span>
          <span class="compact-line" aria-hidden="true"></span>
        </summary>
        ${summary && html`<div class="compact-summary"><strong>${t("history.summary")}</strong>
          <div class="part-text">${summary}</div></div>`}
      </details>
    </div>
  `;
}
