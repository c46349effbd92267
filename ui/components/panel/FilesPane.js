/**
 * The file tree: the task's workspace, one folder loaded when it is
 * opened; ignored entries dimmed; a symlink leading out is shown but cannot be opened.
 * A file opens its preview; new file / new folder / rename / delete (which asks first)
 * run on the server, confined to the workspace. "Clean temp" empties
 * `.reinagent/.temp/`. Open folders are kept per task while the page lives.
 *
 * @typedef {import("../../../protocol/index.ts").FileTreeEntry} FileTreeEntry
 */
import { useState } from "preact/hooks";
import { signal } from "@preact/signals";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { request } from "../../state/connection.js";
import { fmtBytes, openFilePreview } from "../../state/panel.js";
import { PanelError, useLoad } from "./FileView.js";
import { IconPencil, IconTrash } from "../Icons.js";

/** Open folders by task. */
const openDirs = signal(/** @type {Map<string, Set<string>>} */ (new Map()));
/** Bumped after a change so every shown folder reloads. */
const version = signal(0);

/** @param {string} taskId @param {string} path */
function toggleDir(taskId, path) {
  const next = new Map(openDirs.peek());
  const set = new Set(next.get(taskId) ?? []);
  if (set.has(path)) set.delete(path);
  else set.add(path);
  next.set(taskId, set);
  openDirs.value = next;
}

/**
 * What the action form does: create (a file or folder at `path`), rename `from`, or
 * confirm deleting `path`.
 * @typedef {{kind: "file"|"dir", path: string} | {kind: "rename", from: string, path: string}
 *   | {kind: "delete", path: string}} Action
 */

/** @param {{taskId: string}} props */
export function FilesPane({ taskId }) {
  const [action, setAction] = useState(/** @type {Action|null} */ (null));
  const [error, setError] = useState("");
  const [note, setNote] = useState("");
  /** @param {Promise<unknown>} p @param {string} [ok] */
  const run = (p, ok = "") =>
    p.then(() => {
      setError("");
      setNote(ok);
      setAction(null);
      version.value++;
    }, (e) => setError(String(e?.message ?? e)));
  const submit = () => {
    if (!action) return;
    const path = action.path.trim().replace(/^\/+/, "");
    if (action.kind === "delete") run(request("files.delete", { taskId, path }));
    else if (!path) setError(t("files.nameNeeded"));
    else if (action.kind === "rename") {
      run(request("files.rename", { taskId, from: action.from, to: path }));
    } else run(request("files.create", { taskId, path, kind: action.kind }));
  };
  const cleanTemp = () =>
    request("files.cleanTemp", { taskId }).then((r) => {
      setNote(t("files.cleaned", { n: r.removed }));
      version.value++;
    }, (e) => setError(String(e?.message ?? e)));
  return html`
    <div class="files-pane" data-testid="files-pane">
      <div class="rpanel-bar files-bar">
        <button type="button" class="btn btn-small" data-testid="files-new-file"
          onClick=${() => setAction({ kind: "file", path: "" })}>${t("files.newFile")}</button>
        <button type="button" class="btn btn-small" data-testid="files-new-dir"
          onClick=${() => setAction({ kind: "dir", path: "" })}>${t("files.newDir")}</button>
        <span class="rpanel-grow"></span>
        <button type="button" class="btn btn-small" data-testid="files-clean-temp"
          title=${t("files.cleanTempTitle")} onClick=${cleanTemp}>${t("files.cleanTemp")}</button>
        <button type="button" class="btn btn-small" data-testid="files-refresh"
          onClick=${() => version.value++}>${t("files.refresh")}</button>
      </div>
      ${action && html`
        <${ActionForm}
          action=${action}
          setAction=${setAction}
          submit=${submit}
        />
      `}
      ${error && html`<p class="git-error" role="alert" data-testid="files-error">${error}</p>`}
      ${note && html`<p class="git-detail" role="status">${note}</p>`}
      <div class="files-tree" role="tree" aria-label=${t(
        "files.treeLabel",
      )} data-testid="files-tree">
        <${Dir} taskId=${taskId} path="" depth=${0} setAction=${setAction} />
      </div>
    </div>
  `;
}

/** @param {{action: Action, setAction: (a: Action|null) => void, submit: () => void}} props */
function ActionForm({ action, setAction, submit }) {
  if (action.kind === "delete") {
    return html`
      <div class="git-confirm" role="alertdialog" aria-label=${t("files.delete")}
        data-testid="files-delete-confirm">
        <span>${t("files.confirmDelete", { path: action.path })}</span>
        <button type="button" class="btn btn-small btn-danger" data-testid="files-delete-yes"
          onClick=${submit}>${t("files.delete")}</button>
        <button type="button" class="btn btn-small" data-testid="files-action-cancel"
          onClick=${() => setAction(null)}>${t("git.cancel")}</button>
      </div>
    `;
  }
  const label = action.kind === "rename"
    ? t("files.renameTo", { path: action.from })
    : t(action.kind === "dir" ? "files.newDirPath" : "files.newFilePath");
  return html`
    <form class="files-form" onSubmit=${(/** @type {Event} */ e) => {
      e.preventDefault();
      submit();
    }}>
      <label class="files-form-label" for="files-path">${label}</label>
      <input
        id="files-path"
        class="input"
        data-testid="files-path"
        maxlength="4096"
        autofocus
        value=${action.path}
        onInput=${(/** @type {InputEvent} */ e) =>
          setAction({ ...action, path: /** @type {HTMLInputElement} */ (e.currentTarget).value })}
        onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            e.stopPropagation();
            setAction(null);
          }
        }}
      />
      <button type="submit" class="btn btn-small btn-accent" data-testid="files-action-ok">
        ${action.kind === "rename" ? t("files.rename") : t("git.create")}
      </button>
      <button type="button" class="btn btn-small" data-testid="files-action-cancel"
        onClick=${() => setAction(null)}>${t("git.cancel")}</button>
    </form>
  `;
}

/**
 * @param {{taskId: string, path: string, depth: number,
 *   setAction: (a: Action|null) => void}} props
 */
function Dir({ taskId, path, depth, setAction }) {
  const v = version.value;
  const { st, retry } = useLoad(
    () => request("files.list", { taskId, path }),
    `${taskId}\n${path}\n${v}`,
  );
  if (st.state === "loading") {
    return html`<p class="files-msg" style=${`--depth: ${depth}`}>${t("panel.loading")}</p>`;
  }
  if (st.state === "error") return html`<${PanelError} error=${st.error} retry=${retry} />`;
  const { entries, truncated } = st.value;
  const open = openDirs.value.get(taskId) ?? new Set();
  return html`
    <ul class="files-list" role="group">
      ${entries.length === 0 && depth === 0 &&
        html`<li class="files-msg">${t("files.empty")}</li>`}
      ${entries.map((e) =>
        html`
          <${Node}
            key=${e.path}
            taskId=${taskId}
            entry=${e}
            depth=${depth}
            expanded=${open.has(e.path)}
            setAction=${setAction}
          />
        `
      )}
      ${truncated && html`<li class="files-msg">${t("files.truncated")}</li>`}
    </ul>
  `;
}

/**
 * @param {{taskId: string, entry: FileTreeEntry, depth: number, expanded: boolean,
 *   setAction: (a: Action|null) => void}} props
 */
function Node({ taskId, entry, depth, expanded, setAction }) {
  const folder = entry.kind === "dir" || !!entry.dirLink;
  const blocked = !!entry.outside;
  const onOpen = () => {
    if (blocked) return;
    if (folder) toggleDir(taskId, entry.path);
    else openFilePreview(taskId, entry.path);
  };
  return html`
    <li
      role="treeitem"
      aria-expanded=${folder ? (expanded ? "true" : "false") : undefined}
      class=${`files-node${entry.ignored ? " files-ignored" : ""}${
        blocked ? " files-outside" : ""
      }`}
      data-testid="files-node"
      data-path=${entry.path}
      data-kind=${entry.kind}
      data-ignored=${entry.ignored ? "true" : "false"}
    >
      <div class="files-row" style=${`--depth: ${depth}`}>
        <button
          type="button"
          class="files-name"
          data-testid="files-open"
          disabled=${blocked}
          title=${blocked ? t("files.outside") : entry.path}
          aria-label=${folder
            ? t(expanded ? "files.collapse" : "files.expand", { name: entry.name })
            : t("files.openFile", { name: entry.name })}
          onClick=${onOpen}
        >
          <span class="files-icon" aria-hidden="true">${folder
            ? (expanded ? "▾" : "▸")
            : "·"}</span>
          <span class="files-label">${entry.name}${entry.kind === "symlink" ? " ↗" : ""}</span>
          ${entry.kind === "file" && html`<span class="files-size">${fmtBytes(entry.size)}</span>`}
        </button>
        <button type="button" class="icon-btn files-act" data-testid="files-rename"
          aria-label=${t("files.renameItem", { name: entry.name })} title=${t("files.rename")}
          onClick=${() => setAction({ kind: "rename", from: entry.path, path: entry.path })}>
          <${IconPencil} size=${15} />
        </button>
        <button type="button" class="icon-btn files-act" data-testid="files-delete"
          aria-label=${t("files.deleteItem", { name: entry.name })} title=${t("files.delete")}
          onClick=${() => setAction({ kind: "delete", path: entry.path })}>
          <${IconTrash} size=${15} />
        </button>
      </div>
      ${folder && expanded && html`
        <${Dir} taskId=${taskId} path=${entry.path} depth=${depth + 1} setAction=${setAction} />
      `}
    </li>
  `;
}
