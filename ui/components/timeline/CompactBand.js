/**
 * A compaction band (`compact` entry): a full-width divider "Compacted N messages" with
 * what triggered it, the prompt before → after and how long it took; the summary the
 * model now reads instead of those messages opens below it.
 *
 * @typedef {import("../../../protocol/index.ts").Entry} Entry
 */
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { compactMetaOf } from "../../../protocol/index.ts";
import { compactTokens, shortDuration } from "../../state/stats.js";
import { Markdown } from "../Markdown.js";

/** @param {{entry: Entry}} props */
export function CompactBand({ entry }) {
  const summary = entry.parts.map((p) => p.text ?? "").filter(Boolean).join("\n").trim();
  const m = compactMetaOf(entry);
  const label = m ? tn("compact.band", m.count) : t("history.compacted");
  const facts = m
    ? [
      t(/** @type {const} */ (`compact.trigger.${m.trigger}`)),
      m.inTurn ? t("compact.inTurn") : "",
      t("compact.tokens", {
        before: compactTokens(m.tokensBefore),
        after: compactTokens(m.tokensAfter),
      }),
      shortDuration(m.durationMs),
      m.focus ? t("compact.focus", { focus: m.focus }) : "",
    ].filter(Boolean).join(" · ")
    : "";
  return html`
    <div
      class="compact-band"
      role="separator"
      aria-label=${label}
      data-testid="compact-band"
      data-entry-id=${entry.id}
      data-count=${m ? String(m.count) : ""}
      data-trigger=${m?.trigger ?? ""}
    >
      <details class="compact-inner">
        <summary class="compact-head" title=${t("history.compactedHint")}>
          <span class="compact-line" aria-hidden="true"></span>
          <span class="compact-label">${label}</span>
          <span class="compact-line" aria-hidden="true"></span>
        </summary>
        ${facts && html`<p class="compact-facts" data-testid="compact-facts">${facts}</p>`}
        ${summary && html`
          <div class="compact-summary" data-testid="compact-summary">
            <strong>${t("history.summary")}</strong>
            <div class="part-text">
              <${Markdown} text=${summary} />
            </div>
          </div>
        `}
      </details>
    </div>
  `;
}
