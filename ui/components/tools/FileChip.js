/**
 * A file or folder named in a tool card: icon, the path (the file name stands out,
 * the folder part is muted and shortened first) and an optional label such as a line
 * range, "created" or "deleted".
 */
import { html } from "../../html.js";
import { IconFile, IconFolder } from "./ToolIcons.js";

/**
 * @param {{path: string, dir?: boolean, label?: string, tone?: "" | "ok" | "bad"}} props
 */
export function FileChip({ path, dir = false, label, tone = "" }) {
  const p = path || ".";
  const cut = p.replace(/\/+$/, "").lastIndexOf("/");
  const head = cut > 0 ? p.slice(0, cut + 1) : "";
  const base = cut > 0 ? p.slice(cut + 1) : p;
  return html`
    <span class="file-chip" data-testid="file-chip" title=${p}>
      ${dir ? html`<${IconFolder} size=${13} />` : html`<${IconFile} size=${13} />`}
      <span class="file-path"><span class="file-dir">${head}</span><span class="file-base"
        >${base}</span></span>
      ${label &&
        html`
          <span class=${`file-label${tone ? ` file-label-${tone}` : ""}`} data-testid="file-label"
          >${label}</span>
        `}
    </span>
  `;
}
