/**
 * A rewind in the conversation (a `system` entry with `meta.rewind`, see
 * protocol/changes.ts): a band "Rewound 3 files to before this turn" with who
 * (the client the server saw) and when; it opens to the result in plain words and the
 * files restored and removed. Shown after the turn it happened in; when that is not
 * the turn it rewound, the band quotes that turn and can scroll to it. Also the plain
 * words of a rewind result and of a client, shared with the dialog and the panel.
 *
 * @typedef {import("../../../protocol/index.ts").Entry} Entry
 * @typedef {import("../../../protocol/index.ts").RewindEvent} RewindEvent
 * @typedef {import("../../../protocol/index.ts").ClientInfo} ClientInfo
 */
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { scrollToEntry } from "../../state/overlays.js";
import { IconRewind } from "../interact/InteractIcons.js";
import { clientText, shortTime } from "../format.js";

/**
 * "Restored 2 files, removed 1 new file." in the reader's language.
 * @param {number} restored
 * @param {number} removed
 */
export function rewindResultText(restored, removed) {
  if (!restored && !removed) return t("rewind.result.nothing");
  const parts = [];
  if (restored) parts.push(tn("rewind.result.restored", restored));
  if (removed) {
    parts.push(tn(restored ? "rewind.result.alsoRemoved" : "rewind.result.removedOnly", removed));
  }
  return parts.join(t("rewind.result.sep")) + t("rewind.result.end");
}

/** @param {{testid: string, title: string, paths: string[]}} props */
function Paths({ testid, title, paths }) {
  if (!paths.length) return null;
  return html`
    <div class="rwb-group" data-testid=${testid}>
      <h4 class="rwb-group-head">${title}</h4>
      <ul class="rwb-list">
        ${paths.map((p) => html`<li class="rwb-path" key=${p}>${p}</li>`)}
      </ul>
    </div>
  `;
}

/** @param {{entry: Entry, turnId: string}} props `turnId`: the turn the band is shown in */
export function RewindBand({ entry, turnId }) {
  const r = /** @type {RewindEvent|undefined} */ (entry.meta?.rewind);
  if (!r) return null;
  const restored = Array.isArray(r.restored) ? r.restored : [];
  const removed = Array.isArray(r.removed) ? r.removed : [];
  const n = restored.length + removed.length;
  const here = r.turnId === turnId;
  const title = here
    ? tn("rewind.band.thisTurn", n)
    : tn("rewind.band.otherTurn", n, { turn: r.turnText });
  return html`
    <div
      class="rewind-band"
      role="note"
      aria-label=${t("rewind.band.label")}
      data-testid="rewind-band"
      data-entry-id=${entry.id}
      data-turn-id=${r.turnId}
    >
      <details class="rwb-inner">
        <summary class="rwb-head">
          <span class="rwb-icon" aria-hidden="true"><${IconRewind} size=${15} /></span>
          <span class="rwb-title" data-testid="rewind-band-title">${title}</span>
          <span class="rwb-when" data-testid="rewind-band-when">${t("rewind.band.when", {
            who: clientText(r.by),
            time: shortTime(r.at),
          })}</span>
        </summary>
        <div class="rwb-body" data-testid="rewind-band-body">
          <p class="rwb-result" data-testid="rewind-band-result">${rewindResultText(
            restored.length,
            removed.length,
          )}</p>
          <${Paths} testid="rewind-band-restored" title=${t(
            "rewind.band.restored",
          )} paths=${restored} />
          <${Paths} testid="rewind-band-removed" title=${t(
            "rewind.band.removed",
          )} paths=${removed} />
          ${!here &&
            html`
              <button type="button" class="btn btn-small rwb-show" data-testid="rewind-band-show"
                onClick=${() => scrollToEntry(r.turnId)}>${t("rewind.band.show")}</button>
            `}
        </div>
      </details>
    </div>
  `;
}
