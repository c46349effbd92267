/**
 * A tool call as a compact card: name, one-line argument summary, status (running,
 * done, failed, no result) and duration; click shows the result text (or, before a
 * result exists, the arguments). Failures start expanded with the error text.
 *
 * @typedef {import("../../server/protocol.ts").Part} Part
 * @typedef {import("../../server/protocol.ts").Entry} Entry
 */
import { useState } from "preact/hooks";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { argSummary } from "../state/timeline_model.js";
import { IconCheck, IconChevron, IconTool, IconX } from "./RunIcons.js";

/**
 * @param {Entry|undefined} result
 * @param {boolean} live
 */
function statusOf(result, live) {
  if (result) {
    return result.status === "error" || result.parts[0]?.data?.isError === true ? "failed" : "done";
  }
  return live ? "running" : "none";
}

/** @param {{part: Part, result?: Entry, live: boolean}} props */
export function ToolCard({ part, result, live }) {
  const data = part.data ?? {};
  const name = String(data.name ?? "?");
  const status = statusOf(result, live);
  const [open, setOpen] = useState(/** @type {boolean|null} */ (null));
  const expanded = open ?? status === "failed";
  const summary = argSummary(data.args);
  const ms = Number(result?.meta?.durationMs);
  const output = result
    ? result.parts[0]?.text || t("tool.noOutput")
    : JSON.stringify(data.args ?? {}, null, 2);
  const statusLabel = {
    running: t("tool.running"),
    done: t("tool.done"),
    failed: t("tool.failed"),
    none: t("tool.noResult"),
  }[status];
  return html`
    <div class="tool-card" data-testid="tool-card" data-tool=${name} data-status=${status}>
      <button
        type="button"
        class="tool-head"
        aria-expanded=${expanded ? "true" : "false"}
        title=${t("tool.toggle")}
        onClick=${() => setOpen(!expanded)}
      >
        <span class=${`tool-state tool-${status}`} title=${statusLabel}>
          ${status === "running"
            ? html`<span class="spinner" aria-hidden="true"></span>`
            : status === "done"
            ? html`<${IconCheck} size=${14} />`
            : status === "failed"
            ? html`<${IconX} size=${14} />`
            : html`<${IconTool} size=${14} />`}
          <span class="sr-only">${statusLabel}</span>
        </span>
        <span class="tool-name">${name}</span>
        <span class="tool-arg" data-testid="tool-arg">${summary}</span>
        ${Number.isFinite(ms) && html`<span class="tool-ms">${(ms / 1000).toFixed(1)}s</span>`}
        <span class="chev"><${IconChevron} size=${14} /></span>
      </button>
      ${expanded &&
        html`<pre class=${
          status === "failed" ? "tool-out tool-out-error" : "tool-out"
        } data-testid="tool-output">${output}</pre>`}
    </div>
  `;
}
