/**
 * An isolated task's review, from its branch chip: the branch and its base, commits ahead
 * and behind, the changed files and the whole diff; Merge into the base (the conflicts
 * listed, with a button that hands them back to the agent), Keep branch (the worktree goes,
 * the branch stays and is pushed when there is a remote), Discard (after a confirmation).
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { Dialog } from "../interact/Dialog.js";
import {
  busy,
  closeReview,
  finish,
  handBack,
  merge,
  outcome,
  review,
  reviewing,
} from "../../state/worktree.js";

/** @param {{taskId: string}} props */
export function WorktreeDialog({ taskId }) {
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  if (reviewing.value !== taskId) return null;
  const r = review.value;
  const o = outcome.value;
  const done = o?.kind === "kept" || o?.kind === "discarded";
  const conflictText = o?.kind === "conflicts"
    ? t("worktree.handBackText", { base: r?.base ?? "", files: (o.files ?? []).join(", ") })
    : "";
  return html`
    <${Dialog}
      title=${t("worktree.title")}
      testid="worktree-dialog"
      onClose=${closeReview}
      footer=${done
        ? html`
          <button type="button" class="btn" onClick=${closeReview}>${t("worktree.close")}</button>
        `
        : html`
          ${confirmDiscard
            ? html`
              <span class="wt-confirm">${t("worktree.discardAsk")}</span>
              <button type="button" class="btn" onClick=${() => setConfirmDiscard(false)}>
                ${t("task.cancel")}
              </button>
              <button type="button" class="btn btn-danger" data-testid="worktree-discard-confirm"
                disabled=${busy.value} onClick=${() => finish(taskId, "discard")}>
                ${t("worktree.discard")}
              </button>
            `
            : html`
              <button type="button" class="btn" data-testid="worktree-discard"
                disabled=${busy.value} onClick=${() => setConfirmDiscard(true)}>
                ${t("worktree.discard")}
              </button>
              <button type="button" class="btn" data-testid="worktree-keep"
                disabled=${busy.value} onClick=${() => finish(taskId, "keep")}>
                ${t("worktree.keep")}
              </button>
              <button type="button" class="btn btn-accent" data-testid="worktree-merge"
                disabled=${busy.value || !r} onClick=${() => merge(taskId)}>
                ${t("worktree.merge", { base: r?.base ?? "" })}
              </button>
            `}
        `}
    >
      ${r && html`
        <p class="wt-facts" data-testid="worktree-facts">
          <code>${r.branch}</code> ${[
            t("worktree.from", { base: r.base }),
            tn("worktree.ahead", r.ahead),
            tn("worktree.behind", r.behind),
            ...(r.uncommitted > 0 ? [tn("worktree.uncommitted", r.uncommitted)] : []),
          ].join(" · ")}
        </p>
      `}
      ${o && html`
        <p class=${`wt-outcome wt-${o.kind}`} role="status" data-testid="worktree-outcome">
          ${o.kind === "merged"
            ? t(o.text === "fast-forward" ? "worktree.mergedFf" : "worktree.mergedCommit", {
              base: r?.base ?? "",
            })
            : o.kind === "conflicts"
            ? t("worktree.conflicts", { files: (o.files ?? []).join(", ") })
            : o.kind === "kept"
            ? t("worktree.kept", { how: o.text })
            : o.kind === "discarded"
            ? t("worktree.discarded")
            : o.text}
        </p>
      `}
      ${o?.kind === "conflicts" && html`
        <button type="button" class="btn" data-testid="worktree-hand-back"
          disabled=${busy.value} onClick=${() => handBack(taskId, conflictText)}>
          ${t("worktree.handBack")}
        </button>
      `}
      ${r && !done && html`
        <ul class="wt-files" data-testid="worktree-files">
          ${r.files.map((f) =>
            html`<li key=${f.path}><span class="wt-status">${f.status}</span> <code>${f.path}</code></li>`
          )}
          ${r.files.length === 0 && html`<li class="wt-none">${t("worktree.noChanges")}</li>`}
        </ul>
        ${r.diff && html`<pre class="wt-diff" data-testid="worktree-diff">${r.diff}</pre>`}
        ${r.truncated && html`<p class="field-help">${t("worktree.truncated")}</p>`}
      `}
      ${!r && !o && html`<p class="field-help">${t("remote.loading")}</p>`}
    <//>
  `;
}
