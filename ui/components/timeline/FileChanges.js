/**
 * "N files changed +A −B" after a finished turn (SPEC §7.7), one row per file; a row
 * opens that file's diff in the right panel.
 *
 * @typedef {import("../../state/timeline_model.js").FileChange} FileChange
 */
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { rightPanel } from "../../state/overlays.js";
import { currentId } from "../../state/tasks.js";
import { DiffStats } from "../tools/DiffView.js";
import { IconFile } from "./HistoryIcons.js";

/** @param {{files: FileChange[], added: number, removed: number}} props */
export function FileChanges({ files, added, removed }) {
  const open = (/** @type {FileChange} */ f) => {
    const taskId = currentId.value;
    if (taskId) rightPanel.value = { kind: "diff", taskId, path: f.path, callId: f.callId };
  };
  const active = rightPanel.value;
  return html`
    <section class="file-changes" data-testid="file-changes" aria-label=${t(
      "history.changesLabel",
    )}>
      <header class="fc-head">
        <span class="fc-title" data-testid="file-changes-title">${tn(
          "history.changes",
          files.length,
        )}</span>
        <${DiffStats} added=${added} removed=${removed} />
      </header>
      <ul class="fc-list">
        ${files.map((f) => {
          const on = active?.kind === "diff" && active.taskId === currentId.value &&
            active.path === f.path && active.callId === f.callId;
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
                <${DiffStats} added=${f.added} removed=${f.removed} />
              </button>
            </li>
          `;
        })}
      </ul>
    </section>
  `;
}
