/**
 * The git panel's branch bar: the current branch with its upstream and ahead/behind,
 * push (sets the upstream the first time), and a branch list to switch to or create
 * one. A switch the server refuses (tracked changes) shows its guidance.
 *
 * @typedef {import("../../../protocol/index.ts").GitStatus} GitStatus
 * @typedef {import("../../../protocol/index.ts").GitBranch} GitBranch
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { request } from "../../state/connection.js";
import { IconBranch } from "../sidebar/icons.js";

/**
 * @param {{taskId: string, status: Extract<GitStatus, {repo: true}>,
 *   run: (p: Promise<unknown>) => void}} props
 */
export function GitBranches({ taskId, status, run }) {
  const [open, setOpen] = useState(false);
  const [list, setList] = useState(/** @type {GitBranch[]|null} */ (null));
  const [name, setName] = useState("");
  const [pushing, setPushing] = useState(false);
  const toggle = () => {
    const next = !open;
    setOpen(next);
    if (next) {
      request("git.branches", { taskId }).then((r) => setList(r.branches), () => setList([]));
    }
  };
  const done = (/** @type {Promise<unknown>} */ p) => {
    p.then(() => setOpen(false), () => {});
    run(p);
  };
  const push = () => {
    setPushing(true);
    const p = request("git.push", { taskId });
    p.finally(() => setPushing(false)).catch(() => {});
    run(p);
  };
  return html`
    <div class="git-branchbar">
      <button
        type="button"
        class="btn btn-small git-branch"
        data-testid="git-branch"
        aria-expanded=${open ? "true" : "false"}
        aria-label=${t("git.branchLabel", { branch: status.branch ?? t("git.detached") })}
        onClick=${toggle}
      >
        <${IconBranch} /> ${status.branch ?? t("git.detached")}
      </button>
      <span class="git-upstream" data-testid="git-upstream">
        ${status.upstream
          ? t("git.upstream", {
            upstream: status.upstream,
            ahead: status.ahead,
            behind: status.behind,
          })
          : status.unborn
          ? t("git.unborn")
          : t("git.noUpstream")}
      </span>
      <span class="rpanel-grow"></span>
      <button
        type="button"
        class="btn btn-small"
        data-testid="git-push"
        disabled=${pushing || status.unborn || !status.branch}
        onClick=${push}
      >${pushing ? t("git.pushing") : t("git.push")}</button>
    </div>
    ${open && html`
      <div class="git-branches" data-testid="git-branches">
        ${list === null ? html`<p class="git-detail">${t("panel.loading")}</p>` : html`
          <ul>
            ${list.map((b) =>
              html`
                <li key=${b.name}>
                  <button
                    type="button"
                    class="git-branch-item"
                    data-testid="git-branch-item"
                    data-name=${b.name}
                    aria-current=${b.current ? "true" : "false"}
                    disabled=${b.current}
                    onClick=${() => done(request("git.switch", { taskId, branch: b.name }))}
                  >${b.current ? "✓ " : ""}${b.name}${b.upstream
                    ? html`
                      <span class="git-detail">${b.upstream}</span>
                    `
                    : ""}</button>
                </li>
              `
            )}
          </ul>
        `}
        <form
          class="git-newbranch"
          onSubmit=${(/** @type {Event} */ e) => {
            e.preventDefault();
            if (!name.trim()) return;
            done(request("git.createBranch", { taskId, branch: name.trim() }));
            setName("");
          }}
        >
          <input
            class="input"
            data-testid="git-new-branch"
            aria-label=${t("git.newBranch")}
            placeholder=${t("git.newBranch")}
            maxlength="250"
            value=${name}
            onInput=${(/** @type {InputEvent} */ e) =>
              setName(/** @type {HTMLInputElement} */ (e.currentTarget).value)}
          />
          <button type="submit" class="btn btn-small" data-testid="git-create-branch">
            ${t("git.create")}
          </button>
        </form>
        <p class="git-detail">${t("git.switchNote")}</p>
      </div>
    `}
  `;
}
