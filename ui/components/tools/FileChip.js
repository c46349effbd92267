/**
 * A file or folder named in a tool card: icon, the path (the file name stands out,
 * the folder part is muted and shortened first) and an optional label such as a line
 * range, "created" or "deleted". A file chip opens the right panel:
 * the file's preview, or — with `callId` — the changes that tool call made. It sits
 * inside the card's head button, so its click does not fold the card.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { currentId } from "../../state/tasks.js";
import { openDiff, openFilePreview } from "../../state/panel.js";
import { IconFile, IconFolder } from "./ToolIcons.js";

/**
 * @param {{path: string, dir?: boolean, label?: string, tone?: "" | "ok" | "bad",
 *   longLabel?: boolean, callId?: string, open?: boolean}} props `open: false` for a chip
 *   that opens nothing (a deleted file); `callId` opens that call's diff instead of the
 *   file; `longLabel` lets the label be shortened before the file's name.
 */
export function FileChip(
  { path, dir = false, label, tone = "", longLabel = false, callId, open = true },
) {
  const p = path || ".";
  const cut = p.replace(/\/+$/, "").lastIndexOf("/");
  const head = cut > 0 ? p.slice(0, cut + 1) : "";
  const base = cut > 0 ? p.slice(cut + 1) : p;
  const taskId = currentId.value;
  const openable = open && !dir && p !== "." && !!taskId;
  const go = (/** @type {Event} */ e) => {
    e.preventDefault();
    e.stopPropagation();
    if (!taskId) return;
    if (callId) openDiff(taskId, p, callId);
    else openFilePreview(taskId, p);
  };
  const hint = openable ? t(callId ? "panel.openChanges" : "panel.openPreview", { path: p }) : p;
  return html`
    <span
      class=${`file-chip${openable ? " file-chip-link" : ""}`}
      data-testid="file-chip"
      title=${p}
      role=${openable ? "link" : undefined}
      tabindex=${openable ? "0" : undefined}
      aria-label=${openable ? hint : undefined}
      onClick=${openable ? go : undefined}
      onKeyDown=${openable
        ? (/** @type {KeyboardEvent} */ e) => {
          if (e.key === "Enter" || e.key === " ") go(e);
        }
        : undefined}
    >
      ${dir ? html`<${IconFolder} size=${13} />` : html`<${IconFile} size=${13} />`}
      <span class="file-path"><span class="file-dir">${head}</span><span class="file-base"
        >${base}</span></span>
      ${label &&
        html`
          <span
            class=${`file-label${tone ? ` file-label-${tone}` : ""}${
              longLabel ? " file-label-long" : ""
            }`}
            data-testid="file-label"
            title=${longLabel ? label : undefined}
          >${label}</span>
        `}
    </span>
  `;
}
