/**
 * The git log with its commit graph: the server lays the lanes out
 * (`git.log`); here one SVG draws the lines and dots beside the rows. Loaded when
 * the section is opened.
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { request } from "../../state/connection.js";
import { graphShapes, LANE_W, ROW_H } from "../../state/git_model.js";
import { shortTime } from "../format.js";
import { PanelError, useLoad } from "./FileView.js";

/** @param {{taskId: string}} props */
export function GitLog({ taskId }) {
  const [open, setOpen] = useState(false);
  return html`
    <section class="git-log" aria-label=${t("git.history")}>
      <button
        type="button"
        class="git-log-toggle"
        data-testid="git-log-toggle"
        aria-expanded=${open ? "true" : "false"}
        onClick=${() => setOpen(!open)}
      >${open ? "▾" : "▸"} ${t("git.history")}</button>
      ${open && html`<${LogList} taskId=${taskId} />`}
    </section>
  `;
}

/** @param {{taskId: string}} props */
function LogList({ taskId }) {
  const { st, retry } = useLoad(() => request("git.log", { taskId, limit: 200 }), taskId);
  if (st.state === "loading") return html`<p class="git-detail">${t("panel.loading")}</p>`;
  if (st.state === "error") return html`<${PanelError} error=${st.error} retry=${retry} />`;
  const { commits, lanes } = st.value;
  if (!commits.length) return html`<p class="git-detail">${t("git.noCommits")}</p>`;
  const { paths, dots } = graphShapes(commits);
  const w = Math.max(1, lanes) * LANE_W;
  return html`
    <div class="git-graph" data-testid="git-log" style=${`--git-row: ${ROW_H}px`}>
      <svg
        class="git-graph-svg"
        width=${w}
        height=${commits.length * ROW_H}
        aria-hidden="true"
        data-testid="git-graph"
      >
        ${paths.map((p) => html`<path d=${p.d} class=${`git-lane git-lane-${p.lane % 6}`} />`)}
        ${dots.map((d) =>
          html`<circle cx=${d.cx} cy=${d.cy} r="4" class=${`git-dot git-lane-${d.lane % 6}`} />`
        )}
      </svg>
      <ol class="git-commits" style=${`margin-inline-start: ${w + 6}px`}>
        ${commits.map((c) =>
          html`
            <li class="git-commitrow" data-testid="git-commit-row" key=${c.hash} title=${c.hash}>
              <code class="git-hash">${c.hash.slice(0, 7)}</code>
              ${c.refs.map((r) => html`<span class="git-ref">${r}</span>`)}
              <span class="git-subject">${c.subject}</span>
              <span class="git-when">${c.author} · ${shortTime(c.time * 1000)}</span>
            </li>
          `
        )}
      </ol>
    </div>
  `;
}
