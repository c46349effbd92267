/**
 * The git panel of the task's workspace: branch (switch, create), the
 * changed files grouped conflicts / staged / changes / untracked with their XY codes,
 * a file's inline diff, stage / unstage / discard (discard asks first), commit with an
 * optional model-written message, push, and the log with its commit graph. Not a
 * repository or no git → a plain explanation (and "Initialise" when git is there).
 * It reloads when the agent's tools finish (a new tool result) and when the window
 * gets focus.
 *
 * @typedef {import("../../../protocol/index.ts").GitStatus} GitStatus
 * @typedef {import("../../../protocol/index.ts").GitFileStatus} GitFileStatus
 * @typedef {import("../../state/git_model.js").GitGroup} GitGroup
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { computed } from "@preact/signals";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { request } from "../../state/connection.js";
import { entries } from "../../state/timeline.js";
import { GIT_GROUPS, groupFiles, xyCode } from "../../state/git_model.js";
import { PanelError, useLoad } from "./FileView.js";
import { highlightHtml } from "./highlight.js";
import { GitBranches } from "./GitBranches.js";
import { GitLog } from "./GitLog.js";
import { IconSpark } from "../Icons.js";

/** Heading of each group. */
const GROUP_LABEL = /** @type {const} */ ({
  conflict: "git.group.conflict",
  staged: "git.group.staged",
  unstaged: "git.group.unstaged",
  untracked: "git.group.untracked",
});

/** Tool results in the loaded timeline: a new one may have changed files. */
const toolResults = computed(() =>
  entries.value.reduce((n, e) => n + (e.role === "tool" ? 1 : 0), 0)
);

/** @param {{taskId: string}} props */
export function GitPane({ taskId }) {
  const { st, retry } = useLoad(() => request("git.status", { taskId }), taskId);
  const writes = toolResults.value;
  const seen = useRef(writes);
  useEffect(() => {
    // Only a new tool result reloads (the first load is useLoad's own).
    if (seen.current === writes) return;
    seen.current = writes;
    const id = setTimeout(retry, 250);
    return () => clearTimeout(id);
  }, [writes]);
  useEffect(() => {
    addEventListener("focus", retry);
    return () => removeEventListener("focus", retry);
  }, []);
  if (st.state === "loading") {
    return html`<p class="rpanel-msg" data-testid="panel-loading">${t("panel.loading")}</p>`;
  }
  if (st.state === "error") return html`<${PanelError} error=${st.error} retry=${retry} />`;
  const s = st.value;
  if (!s.repo) return html`<${NotRepo} taskId=${taskId} status=${s} reload=${retry} />`;
  return html`<${RepoView} taskId=${taskId} status=${s} reload=${retry} />`;
}

/** @param {{taskId: string, status: Extract<GitStatus, {repo: false}>, reload: () => void}} props */
function NotRepo({ taskId, status, reload }) {
  const [error, setError] = useState("");
  const init = () =>
    request("git.init", { taskId }).then(reload, (e) => setError(String(e?.message ?? e)));
  return html`
    <div class="rpanel-msg git-norepo" data-testid="git-norepo" data-reason=${status.reason}>
      <p>${t(status.reason === "no_git" ? "git.noGit" : "git.notRepo")}</p>
      <p class="git-detail">${status.message}</p>
      ${status.reason === "not_repo" && html`
        <button type="button" class="btn btn-accent" data-testid="git-init" onClick=${init}>
          ${t("git.init")}
        </button>
      `}
      ${error && html`<p class="git-error" role="alert" data-testid="git-error">${error}</p>`}
    </div>
  `;
}

/**
 * Runs a git op; a failure is shown (git's own words), success reloads the status.
 * @param {(e: string) => void} setError @param {() => void} reload
 */
function runner(setError, reload) {
  /** @param {Promise<unknown>} p */
  return (p) =>
    p.then(() => {
      setError("");
      reload();
    }, (e) => setError(String(e?.message ?? e)));
}

/** @param {{taskId: string, status: Extract<GitStatus, {repo: true}>, reload: () => void}} props */
function RepoView({ taskId, status, reload }) {
  const [error, setError] = useState("");
  const run = runner(setError, reload);
  const groups = groupFiles(status.files);
  return html`
    <div class="git-pane" data-testid="git-pane">
      <${GitBranches} taskId=${taskId} status=${status} run=${run} />
      ${error && html`<p class="git-error" role="alert" data-testid="git-error">${error}</p>`}
      ${status.files.length === 0 &&
        html`<p class="git-clean" data-testid="git-clean">${t("git.clean")}</p>`}
      ${GIT_GROUPS.map((g) =>
        groups[g].length > 0 && html`
          <${Group}
            key=${g}
            group=${g}
            files=${groups[g]}
            taskId=${taskId}
            run=${run}
          />
        `
      )}
      ${status.truncated && html`<p class="git-detail">${t("git.truncated")}</p>`}
      <${CommitBox}
        taskId=${taskId}
        staged=${groups.staged.length}
        run=${run}
        setError=${setError}
      />
      <${GitLog} taskId=${taskId} key=${`${status.branch}\n${status.ahead}`} />
    </div>
  `;
}

/**
 * @param {{group: GitGroup, files: GitFileStatus[], taskId: string,
 *   run: (p: Promise<unknown>) => void}} props
 */
function Group({ group, files, taskId, run }) {
  const paths = files.map((f) => f.path);
  const all = group === "staged"
    ? { label: t("git.unstageAll"), op: /** @type {const} */ ("git.unstage") }
    : group === "conflict"
    ? null
    : { label: t("git.stageAll"), op: /** @type {const} */ ("git.stage") };
  return html`
    <section class="git-group" data-testid=${`git-group-${group}`} aria-label=${t(
      GROUP_LABEL[group],
    )}>
      <header class="git-group-head">
        <h3>${t(GROUP_LABEL[group])} <span class="git-count">${files.length}</span></h3>
        ${all && html`
          <button
            type="button"
            class="btn btn-small"
            data-testid=${`git-${group}-all`}
            onClick=${() => run(request(all.op, { taskId, paths: paths.slice(0, 500) }))}
          >${all.label}</button>
        `}
      </header>
      <ul class="git-files">
        ${files.map((f) =>
          html`
            <${FileRow} key=${f.path} file=${f} group=${group} taskId=${taskId}
              run=${run} />
          `
        )}
      </ul>
    </section>
  `;
}

/**
 * @param {{file: GitFileStatus, group: GitGroup, taskId: string,
 *   run: (p: Promise<unknown>) => void}} props
 */
function FileRow({ file, group, taskId, run }) {
  const [open, setOpen] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const staged = group === "staged";
  const paths = [file.path];
  const cut = file.path.lastIndexOf("/");
  return html`
    <li class="git-file" data-testid="git-file" data-path=${file.path} data-group=${group}>
      <div class="git-file-row">
        <button
          type="button"
          class="git-file-name"
          data-testid="git-file-toggle"
          aria-expanded=${open ? "true" : "false"}
          aria-label=${t("git.showDiff", { path: file.path })}
          onClick=${() => setOpen(!open)}
        >
          <code class=${`git-xy git-xy-${group}`} title=${t("git.xyTitle")}>${xyCode(file)}</code>
          <span class="file-path"><span class="file-dir">${cut >= 0
            ? file.path.slice(0, cut + 1)
            : ""}</span
            ><span class="file-base">${file.path.slice(cut + 1)}</span></span>
          ${file.origPath && html`<span class="git-orig">← ${file.origPath}</span>`}
        </button>
        ${staged
          ? html`
            <button type="button" class="btn btn-small" data-testid="git-unstage"
              onClick=${() => run(request("git.unstage", { taskId, paths }))}>${t(
                "git.unstage",
              )}</button>
          `
          : group !== "conflict" && html`
            <button type="button" class="btn btn-small" data-testid="git-stage"
              onClick=${() => run(request("git.stage", { taskId, paths }))}>${t(
                "git.stage",
              )}</button>
          `}
        ${!staged && group !== "conflict" && html`
          <button type="button" class="btn btn-small git-discard" data-testid="git-discard"
            onClick=${() => setConfirm(true)}>${t("git.discard")}</button>
        `}
      </div>
      ${confirm && html`
        <div class="git-confirm" role="alertdialog" aria-label=${t("git.discard")}
          data-testid="git-discard-confirm">
          <span>${t(group === "untracked" ? "git.confirmDelete" : "git.confirmDiscard", {
            path: file.path,
          })}</span>
          <button type="button" class="btn btn-small btn-danger" data-testid="git-discard-yes"
            onClick=${() => {
              setConfirm(false);
              run(request("git.discard", { taskId, paths }));
            }}>${t("git.discard")}</button>
          <button type="button" class="btn btn-small" data-testid="git-discard-no"
            onClick=${() => setConfirm(false)}>${t("git.cancel")}</button>
        </div>
      `}
      ${open && html`<${InlineDiff} taskId=${taskId} path=${file.path} staged=${staged} />`}
    </li>
  `;
}

/** @param {{taskId: string, path: string, staged: boolean}} props */
function InlineDiff({ taskId, path, staged }) {
  const { st, retry } = useLoad(
    () => request("git.diff", { taskId, path, staged }),
    `${taskId}\n${path}\n${staged}`,
  );
  if (st.state === "loading") return html`<p class="git-detail">${t("panel.loading")}</p>`;
  if (st.state === "error") return html`<${PanelError} error=${st.error} retry=${retry} />`;
  const d = st.value;
  if (d.binary) return html`<p class="git-detail" data-testid="git-diff">${t("panel.binary")}</p>`;
  if (!d.patch) return html`<p class="git-detail" data-testid="git-diff">${t("git.noDiff")}</p>`;
  return html`
    <div class="code-view code-view-patch git-diff" data-testid="git-diff" role="region"
      aria-label=${t("git.diffOf", { path })} tabindex="0">
      <pre class="code-text"><code dangerouslySetInnerHTML=${{
        __html: highlightHtml(d.patch, "diff"),
      }}></code></pre>
      ${d.truncated && html`<p class="git-detail">${t("git.diffTruncated")}</p>`}
    </div>
  `;
}

/**
 * @param {{taskId: string, staged: number, run: (p: Promise<unknown>) => void,
 *   setError: (e: string) => void}} props
 */
function CommitBox({ taskId, staged, run, setError }) {
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(/** @type {""|"suggest"|"commit"} */ (""));
  const suggest = () => {
    setBusy("suggest");
    request("git.suggestMessage", { taskId }).then(
      (r) => setMessage(r.message),
      (e) => setError(String(e?.message ?? e)),
    ).finally(() => setBusy(""));
  };
  const commit = () => {
    setBusy("commit");
    const p = request("git.commit", { taskId, message });
    p.then(() => setMessage(""), () => {}).finally(() => setBusy(""));
    run(p);
  };
  return html`
    <section class="git-commit" aria-label=${t("git.commitSection")}>
      <textarea
        class="git-message"
        data-testid="git-message"
        rows="3"
        maxlength="20000"
        placeholder=${t("git.messagePlaceholder")}
        aria-label=${t("git.messageLabel")}
        value=${message}
        onInput=${(/** @type {InputEvent} */ e) =>
          setMessage(/** @type {HTMLTextAreaElement} */ (e.currentTarget).value)}
      ></textarea>
      <div class="git-commit-actions">
        <button
          type="button"
          class="btn btn-small"
          data-testid="git-suggest"
          disabled=${staged === 0 || busy !== ""}
          title=${t("git.suggestTitle")}
          onClick=${suggest}
        >${html`<${IconSpark} size=${14} />`} ${busy === "suggest"
          ? t("git.suggesting")
          : t("git.suggest")}</button>
        <span class="rpanel-grow"></span>
        <button
          type="button"
          class="btn btn-accent btn-small"
          data-testid="git-commit"
          disabled=${staged === 0 || !message.trim() || busy !== ""}
          onClick=${commit}
        >${t("git.commit", { n: staged })}</button>
      </div>
    </section>
  `;
}
