/**
 * The right panel: what it shows lives in `rightPanel` (overlays.js);
 * here are its width (remembered per device), the maximised state, opening helpers
 * and the pure helpers behind the diff view: finding a tool call's diff in the loaded
 * timeline and turning a line diff into a unified patch.
 *
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 * @typedef {import("./tool_model.js").LineDiff} LineDiff
 * @typedef {import("./overlays.js").PanelView} PanelView
 */
import { signal } from "@preact/signals";
import { rightPanel } from "./overlays.js";
import { resultMeta } from "./tool_details.js";

export const PANEL_MIN = 300;
export const PANEL_DEFAULT = 520;
/** The panel leaves at least this much to the sidebar and the conversation. */
export const MAIN_MIN = 272 + 320;
const KEY = "reinagent.panelWidth";

/** @param {number} w @param {number} viewport */
export function clampWidth(w, viewport) {
  const max = Math.max(PANEL_MIN, viewport - MAIN_MIN);
  return Math.round(Math.min(Math.max(w, PANEL_MIN), max));
}

function loadWidth() {
  try {
    const n = Number(localStorage.getItem(KEY));
    return Number.isFinite(n) && n >= PANEL_MIN ? n : PANEL_DEFAULT;
  } catch {
    return PANEL_DEFAULT;
  }
}

/** Desired width in px (clamped to the window when shown). */
export const panelWidth = signal(loadWidth());
/** Whether the panel fills the main area. */
export const panelMax = signal(false);

/** @param {number} w */
export function setPanelWidth(w) {
  const v = clampWidth(w, typeof innerWidth === "number" ? innerWidth : 1280);
  panelWidth.value = v;
  try {
    localStorage.setItem(KEY, String(v));
  } catch {
    // storage disabled: the width lasts for this page only
  }
}

/** The element that opened the panel, to return focus to when it closes. */
let opener = /** @type {HTMLElement|null} */ (null);

function rememberOpener() {
  const a = typeof document !== "undefined" ? document.activeElement : null;
  // A move between the panel's own views keeps the opener from outside it.
  if (a && typeof a.closest === "function" && a.closest(".rpanel")) return;
  opener = a && a !== document.body && "focus" in a ? /** @type {HTMLElement} */ (a) : null;
}

/**
 * The panel's tabs: Preview and Diff go back to the last file and diff
 * shown for the task; Sub-agents lists its runs (a transcript counts as that tab).
 * @typedef {"preview"|"diff"|"git"|"files"|"subagents"} PanelTab
 */
export const PANEL_TABS = /** @type {const} */ (["preview", "diff", "git", "files", "subagents"]);

/** The last view of each kind (what the Preview / Diff tabs return to). */
const lastViews = signal(/** @type {Map<string, PanelView>} */ (new Map()));

/** @param {PanelView} v */
function show(v) {
  rightPanel.value = v;
  if (v.kind === "file" || v.kind === "diff") {
    const next = new Map(lastViews.peek());
    next.set(v.kind, v);
    lastViews.value = next;
  }
}

/** The tab a view belongs to. @param {PanelView} v @returns {PanelTab} */
export function tabOf(v) {
  return v.kind === "file"
    ? "preview"
    : v.kind === "subagent"
    ? "subagents"
    : /** @type {PanelTab} */ (v.kind);
}

/**
 * The view a tab opens for the task, or null when it has nothing yet (no file or diff
 * shown for this task).
 * @param {PanelTab} tab @param {string} taskId @returns {PanelView|null}
 */
export function viewOfTab(tab, taskId) {
  if (tab === "preview" || tab === "diff") {
    const v = lastViews.value.get(tab === "preview" ? "file" : "diff");
    return v && v.taskId === taskId ? v : null;
  }
  return tab === "git"
    ? { kind: "git", taskId, path: "" }
    : tab === "files"
    ? { kind: "files", taskId, path: "" }
    : { kind: "subagents", taskId, path: "" };
}

/** Opens a tab (from the header buttons or the panel's tab row). @param {PanelTab} tab @param {string} taskId */
export function openTab(tab, taskId) {
  const v = viewOfTab(tab, taskId);
  if (!v) return;
  rememberOpener();
  show(v);
}

/** @param {string} taskId @param {string} path */
export function openFilePreview(taskId, path) {
  rememberOpener();
  show({ kind: "file", taskId, path });
}

/** @param {string} taskId @param {string} path @param {string} callId */
export function openDiff(taskId, path, callId) {
  rememberOpener();
  show({ kind: "diff", taskId, path, callId });
}

/**
 * The net diff of `path` over the turn of user entry `turnId` (from the server).
 * @param {string} taskId @param {string} path @param {string} turnId
 */
export function openTurnDiff(taskId, path, turnId) {
  rememberOpener();
  show({ kind: "diff", taskId, path, callId: "", turnId });
}

/**
 * A sub-agent's transcript, replayed read-only (`title` heads the panel).
 * @param {string} taskId @param {string} runId @param {string} title
 */
export function openSubagent(taskId, runId, title) {
  rememberOpener();
  rightPanel.value = { kind: "subagent", taskId, path: title, runId };
}

export function closePanel() {
  rightPanel.value = null;
  panelMax.value = false;
  const o = opener;
  opener = null;
  if (o?.isConnected) o.focus();
}

/** @param {string} p */
const norm = (p) => p.replace(/\\/g, "/").replace(/^\.\//, "").replace(/\/+$/, "");

/**
 * The line diff of tool call `callId` (on `path`) in loaded entries: the latest tool
 * result with that call id whose `meta.path` is the path (ids may repeat across turns).
 * @param {Entry[]} list
 * @param {string} callId
 * @param {string} path
 * @returns {{diff: LineDiff, path: string, tool: string}|null}
 */
export function findCallDiff(list, callId, path) {
  for (let i = list.length - 1; i >= 0; i--) {
    const e = list[i];
    const data = e.parts[0]?.data;
    if (e.role !== "tool" || String(data?.toolCallId ?? "") !== callId) continue;
    const meta = resultMeta(e);
    const p = typeof meta.path === "string" ? meta.path : "";
    if (path && p && norm(p) !== norm(path)) continue;
    const d = meta.diff;
    if (!d || typeof d !== "object" || !Array.isArray(d.hunks)) return null;
    return { diff: d, path: p || path, tool: String(data?.name ?? "") };
  }
  return null;
}

/**
 * A unified patch (`--- a/…`, `+++ b/…`, a header per hunk) of a line diff. Hunk sizes are counted
 * from the kept lines, so a truncated diff still gives a well-formed patch of what it
 * shows.
 * @param {LineDiff} diff
 * @param {string} path
 * @param {{created?: boolean, deleted?: boolean}} [how]
 */
export function unifiedPatch(diff, path, how = {}) {
  const p = norm(path);
  const out = [
    `--- ${how.created ? "/dev/null" : `a/${p}`}`,
    `+++ ${how.deleted ? "/dev/null" : `b/${p}`}`,
  ];
  for (const h of diff.hunks) {
    const lines = h.lines ?? [];
    const oldN = lines.filter((l) => l.t !== "+").length;
    const newN = lines.filter((l) => l.t !== "-").length;
    const os = oldN === 0 ? Math.max(0, h.oldStart - 1) : h.oldStart;
    const ns = newN === 0 ? Math.max(0, h.newStart - 1) : h.newStart;
    out.push(`@@ -${os},${oldN} +${ns},${newN} @@`);
    for (const l of lines) out.push(`${l.t}${l.text}`);
  }
  return out.join("\n") + "\n";
}

/** Human size: 512 B, 1.5 KB, 2.3 MB. @param {number} n */
export function fmtBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10240 ? 1 : 0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
