/**
 * Which overlays and side views are open. Shared by the components that open them
 * (sidebar, shortcuts, tool cards) and the components that render them.
 */
import { signal } from "@preact/signals";

/** The search dialog across tasks (Ctrl/Cmd+K, sidebar search entry). */
export const searchOpen = signal(false);
/** The find bar in the conversation (Ctrl/Cmd+F). */
export const findOpen = signal(false);

/**
 * What the right panel shows; null = closed.
 * - `{kind:"file", taskId, path}`: preview of a workspace file
 * - `{kind:"diff", taskId, path, callId}`: the diff a tool call produced
 * - `{kind:"diff", taskId, path, turnId}`: a file's net diff over a turn (the
 *   "files changed" card; `callId` is "")
 * - `{kind:"subagent", taskId, path, runId}`: a sub-agent's transcript (`path` = its
 *   title), replayed read-only
 * - `{kind:"git"|"files"|"subagents", taskId, path: ""}`: the git panel, the file tree,
 *   the list of the task's sub-agents
 * @typedef {{kind: "file", taskId: string, path: string}
 *   | {kind: "diff", taskId: string, path: string, callId: string, turnId?: string}
 *   | {kind: "subagent", taskId: string, path: string, runId: string}
 *   | {kind: "git", taskId: string, path: ""} | {kind: "files", taskId: string, path: ""}
 *   | {kind: "subagents", taskId: string, path: ""}} PanelView
 */
export const rightPanel = signal(/** @type {PanelView|null} */ (null));

/**
 * Asks the timeline to bring an entry into view (and render it if it is virtualised
 * away). `nonce` makes a repeated request for the same entry count again.
 * @typedef {{entryId: string, nonce: number}} ScrollTarget
 */
export const scrollTarget = signal(/** @type {ScrollTarget|null} */ (null));
let scrollNonce = 0;

/** @param {string} entryId */
export function scrollToEntry(entryId) {
  scrollTarget.value = { entryId, nonce: ++scrollNonce };
}

/** Incremented to make the timeline follow the bottom again (the user sent a message). */
export const bottomRequest = signal(0);
