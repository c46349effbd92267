/**
 * ↑/↓ prompt history of the composer: the prompts sent in the shown view's workspace
 * (kept by the server, 30 per workspace). Browsing starts with ↑ on the first line;
 * ↓ on the last line goes back towards the text that was being written.
 */
import { errorCode, request } from "./connection.js";

/** Prompts per workspace key, once loaded. @type {Map<string, string[]>} */
const cache = new Map();
/** @type {{ws: string, index: number, saved: string} | null} */
let browsing = null;

/** @param {string | null} workspace */
const keyOf = (workspace) => workspace ?? "";

/**
 * Loads the workspace's prompts (cached; reloaded after each send).
 * @param {string | null} workspace
 * @returns {Promise<string[]>}
 */
export async function promptsOf(workspace) {
  const k = keyOf(workspace);
  const hit = cache.get(k);
  if (hit) return hit;
  const r = await request("prompts.list", { workspace });
  cache.set(k, r.prompts);
  return r.prompts;
}

/**
 * Fetches the workspace's prompts again (other devices may have added some); not
 * while browsing them.
 * @param {string | null} workspace
 */
export function refreshPrompts(workspace) {
  if (browsing) return;
  request("prompts.list", { workspace })
    .then((r) => cache.set(keyOf(workspace), r.prompts))
    .catch((e) => {
      if (errorCode(e) !== "disconnected") console.warn("reinagent: prompt history", e);
    });
}

/**
 * Notes a sent prompt locally (the server keeps it too).
 * @param {string | null} workspace
 * @param {string} text
 */
export function notePrompt(workspace, text) {
  const p = text.trim();
  const list = cache.get(keyOf(workspace));
  if (list && p && list.at(-1) !== p) cache.set(keyOf(workspace), [...list, p].slice(-30));
  browsing = null;
}

/** Leaves browsing (the user edited the text, switched views or sent). */
export function stopBrowsing() {
  browsing = null;
}

export const isBrowsing = () => browsing !== null;

/**
 * The text to show after ↑ (`dir` -1) or ↓ (`dir` 1), or null when nothing changes
 * (also while the workspace's prompts are still loading: call {@link promptsOf} early).
 * @param {string | null} workspace
 * @param {-1 | 1} dir
 * @param {string} current the composer text now
 * @returns {string | null}
 */
export function navigate(workspace, dir, current) {
  const ws = keyOf(workspace);
  if (browsing && browsing.ws !== ws) browsing = null;
  if (!browsing && dir === 1) return null;
  const list = cache.get(ws);
  if (!list) {
    promptsOf(workspace).catch((e) => console.warn("reinagent: prompt history", e));
    return null;
  }
  if (!list.length) return null;
  if (!browsing) browsing = { ws, index: list.length, saved: current };
  const next = browsing.index + dir;
  if (next < 0) return null; // the oldest: stay
  if (next >= list.length) {
    const saved = browsing.saved;
    browsing = null;
    return saved;
  }
  browsing.index = next;
  return list[next];
}
