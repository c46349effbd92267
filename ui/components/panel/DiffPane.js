/**
 * The changes a write/edit tool call made, in the right panel: the line diff with
 * old/new line numbers (the tool cards' DiffView), or the same as a unified patch
 * (highlighted) to read or copy. A tool call's diff comes from the loaded timeline,
 * else from the server (`file.diff`), so a panel opened from anywhere with (task,
 * call, path) works; a turn's net diff (`turnId`, from the "files changed" card) always
 * comes from the server, which diffs the versions kept before and after the turn.
 *
 * @typedef {import("../../state/tool_model.js").LineDiff} LineDiff
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { request } from "../../state/connection.js";
import { entries } from "../../state/timeline.js";
import { findCallDiff, openFilePreview, unifiedPatch } from "../../state/panel.js";
import { copyText } from "../CodeBlock.js";
import { DiffStats, DiffView } from "../tools/DiffView.js";
import { PanelError, useLoad } from "./FileView.js";
import { highlightHtml } from "./highlight.js";

/**
 * @typedef {{diff: LineDiff, path: string, tool: string,
 *   change?: {created: boolean, deleted: boolean}}} Found
 */

/** @param {{taskId: string, path: string, callId: string, turnId?: string}} props */
export function DiffPane({ taskId, path, callId, turnId }) {
  const local = turnId ? null : findCallDiff(entries.value, callId, path);
  const { st, retry } = useLoad(
    () =>
      local
        ? Promise.resolve(local)
        : request("file.diff", turnId ? { taskId, turnId, path } : { taskId, callId, path }),
    `${taskId}\n${callId}\n${turnId ?? ""}\n${path}\n${local ? "local" : "server"}`,
  );
  if (st.state === "loading") {
    return html`<p class="rpanel-msg" data-testid="panel-loading">${t("panel.loading")}</p>`;
  }
  if (st.state === "error") return html`<${PanelError} error=${st.error} retry=${retry} />`;
  return html`<${DiffBody} taskId=${taskId} found=${local ?? st.value} />`;
}

/** @param {{taskId: string, found: Found}} props */
function DiffBody({ taskId, found }) {
  const [mode, setMode] = useState(/** @type {"lines"|"patch"} */ ("lines"));
  const [copied, setCopied] = useState(/** @type {"idle"|"copied"|"failed"} */ ("idle"));
  const { diff, path, tool, change } = found;
  const deleted = change ? change.deleted : tool === "delete_file";
  const created = change ? change.created : diff.hunks.length > 0 &&
    diff.hunks.every((h) => h.lines.every((l) => l.t === "+")) &&
    diff.removed === 0 && diff.hunks[0].oldStart <= 1;
  const patch = useMemo(() => unifiedPatch(diff, path, { deleted, created }), [
    diff,
    path,
    deleted,
    created,
  ]);
  const patchHtml = useMemo(() => highlightHtml(patch, "diff"), [patch]);
  useEffect(() => {
    if (copied === "idle") return;
    const id = setTimeout(() => setCopied("idle"), 1600);
    return () => clearTimeout(id);
  }, [copied]);
  const copy = () =>
    copyText(patch).then(() => setCopied("copied"), (e) => {
      console.warn("reinagent: copy failed", e);
      setCopied("failed");
    });
  return html`
    ${tool === "turn" &&
      html`<p class="rpanel-note rpanel-info" data-testid="diff-net-note">${
        t(
          created ? "panel.netNoteCreated" : deleted ? "panel.netNoteDeleted" : "panel.netNote",
        )
      }</p>`}
    <div class="rpanel-bar">
      <div class="seg seg-sm" role="group" aria-label=${t("panel.viewLabel")}>
        ${(/** @type {const} */ (["lines", "patch"])).map((m) =>
          html`
            <button
              type="button"
              class="seg-btn"
              data-testid=${`diff-mode-${m}`}
              aria-pressed=${mode === m ? "true" : "false"}
              aria-selected=${mode === m ? "true" : "false"}
              onClick=${() => setMode(m)}
            >${t(m === "lines" ? "panel.viewLines" : "panel.viewPatch")}</button>
          `
        )}
      </div>
      <${DiffStats} added=${diff.added} removed=${diff.removed} />
      <span class="rpanel-grow"></span>
      <button type="button" class="btn btn-small" data-testid="copy-patch" onClick=${copy}>
        <span aria-live="polite">${copied === "copied"
          ? t("panel.copied")
          : copied === "failed"
          ? t("panel.copyFailed")
          : t("panel.copyPatch")}</span>
      </button>
      ${!deleted && html`
        <button
          type="button"
          class="btn btn-small"
          data-testid="panel-open-file"
          onClick=${() => openFilePreview(taskId, path)}
        >${t("panel.openFile")}</button>
      `}
    </div>
    ${mode === "lines"
      ? html`
        <div class="rpanel-diff">
          <${DiffView} diff=${diff} />
        </div>
      `
      : html`
        <div class="code-view code-view-patch" role="region" aria-label=${t("panel.viewPatch")}
          tabindex="0">
          <pre class="code-text" data-testid="patch-text"><code
            dangerouslySetInnerHTML=${{ __html: patchHtml }}></code></pre>
        </div>
      `}
  `;
}
