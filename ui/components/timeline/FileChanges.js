/**
 * "N files changed +A −B" after a finished turn, one row per file. With the
 * server's net record (`meta.changes`) the numbers are each file's net change over the
 * turn (before → after; a new file is "new +4") and a row opens that net diff in the
 * right panel; older turns sum their tool calls and open the last call's diff. A turn
 * whose files a rewind put back is marked "Rewound".
 *
 * @typedef {import("../../state/timeline_model.js").FileChange} FileChange
 * @typedef {import("../../state/timeline_model.js").TurnFiles} TurnFiles
 * @typedef {import("../../i18n/index.js").MsgKey} MsgKey
 */
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { rightPanel } from "../../state/overlays.js";
import { openDiff, openTurnDiff } from "../../state/panel.js";
import { lang } from "../../state/prefs.js";
import { currentId } from "../../state/tasks.js";
import { DiffStats } from "../tools/DiffView.js";
import { IconFile } from "./HistoryIcons.js";

/** @param {number} at */
const clock = (at) =>
  new Intl.DateTimeFormat(lang.value, { hour: "2-digit", minute: "2-digit" }).format(at);

/** @param {{changes: TurnFiles}} props */
export function FileChanges({ changes }) {
  const { files, added, removed, more, turnId, rewound } = changes;
  const taskId = currentId.value;
  const open = (/** @type {FileChange} */ f) => {
    if (!taskId) return;
    if (turnId) openTurnDiff(taskId, f.path, turnId);
    else openDiff(taskId, f.path, f.callId);
  };
  const active = rightPanel.value;
  const isOn = (/** @type {FileChange} */ f) =>
    active?.kind === "diff" && active.taskId === taskId && active.path === f.path &&
    (turnId ? active.turnId === turnId : active.callId === f.callId);
  return html`
    <section
      class=${`file-changes${rewound ? " fc-rewound" : ""}`}
      data-testid="file-changes"
      data-net=${turnId ? "true" : "false"}
      data-rewound=${rewound ? "true" : "false"}
      aria-label=${t("history.changesLabel")}
    >
      <header class="fc-head">
        <span class="fc-title" data-testid="file-changes-title">${tn(
          "history.changes",
          files.length + more,
        )}</span>
        <${DiffStats} added=${added} removed=${removed} />
        ${rewound &&
          html`
            <span class="fc-tag fc-rewound-tag" data-testid="fc-rewound"
              title=${t("history.rewoundAt", { time: clock(rewound.at) })}>${t(
                "history.rewound",
              )}</span>
          `}
      </header>
      <ul class="fc-list">
        ${files.map((f) => {
          const on = isOn(f);
          return html`
            <li key=${f.path}>
              <button
                type="button"
                class=${`fc-row${on ? " on" : ""}`}
                data-testid="file-change"
                data-path=${f.path}
                aria-label=${t("history.review", { path: f.path })}
                aria-pressed=${on ? "true" : "false"}
                onClick=${() => open(f)}
              >
                <span class="fc-icon"><${IconFile} size=${15} /></span>
                <span class="fc-path">${f.path}</span>
                ${f.created && html`<span class="fc-tag fc-new">${t("history.created")}</span>`}
                ${f.deleted && html`<span class="fc-tag fc-del">${t("history.deleted")}</span>`}
                ${f.note &&
                  html`<span class="fc-tag fc-note" data-testid="fc-note">${
                    t(/** @type {MsgKey} */ (`history.note.${f.note}`))
                  }</span>`}
                ${f.added !== null && f.removed !== null &&
                  html`<${DiffStats} added=${f.added} removed=${f.removed} />`}
              </button>
            </li>
          `;
        })}
      </ul>
      ${more > 0 && html`<p class="fc-more">${tn("history.moreFiles", more)}</p>`}
    </section>
  `;
}
