/**
 * Command safety in the UI: notices pushed when someone lowers a safety setting (shown
 * as banners on every client until dismissed) and what commands may see (Settings).
 *
 * @typedef {import("../../protocol/index.ts").SafetyNotice} SafetyNotice
 * @typedef {import("../../protocol/index.ts").SafetyChange} SafetyChange
 * @typedef {import("../../protocol/index.ts").CommandSafetyInfo} CommandSafetyInfo
 */
import { signal } from "@preact/signals";
import { NOTICES_TOPIC } from "../../protocol/index.ts";
import { errorCode, onSync, onTopic, request } from "./connection.js";
import { notifyError } from "./ui.js";

/** Safety notices received while this page is open, newest last. */
export const safetyNotices = signal(/** @type {SafetyNotice[]} */ ([]));
/** What commands may see (loaded by Settings). */
export const safetyInfo = signal(/** @type {CommandSafetyInfo|null} */ (null));

onTopic(NOTICES_TOPIC, (data) => {
  if (data?.kind !== "safety" || !Array.isArray(data.changes)) return;
  safetyNotices.value = [...safetyNotices.value.slice(-4), data];
  if (safetyInfo.value) loadSafetyInfo();
});

/** @param {string} id */
export function dismissSafety(id) {
  safetyNotices.value = safetyNotices.value.filter((n) => n.id !== id);
}

export async function loadSafetyInfo() {
  try {
    safetyInfo.value = await request("safety.info");
  } catch (e) {
    const code = errorCode(e);
    if (code !== "disconnected" && code !== "store_unavailable") notifyError("error.settings", e);
  }
}
onSync(() => {
  if (safetyInfo.value) loadSafetyInfo();
});

/**
 * The i18n key and parameters describing one lowered setting.
 * @param {SafetyChange} c
 * @param {(key: string) => string} tr translates a nested value key
 * @returns {{key: string, params: Record<string, string>}}
 */
export function changeText(c, tr) {
  switch (c.what) {
    case "sandboxLevel":
      return {
        key: "safety.change.sandboxLevel",
        params: { from: tr(`safety.level.${c.from}`), to: tr(`safety.level.${c.to}`) },
      };
    case "sandboxNetwork":
      return { key: "safety.change.sandboxNetwork", params: {} };
    case "defaultApproval":
      return {
        key: "safety.change.defaultApproval",
        params: { from: tr(`approval.${c.from}`), to: tr(`approval.${c.to}`) },
      };
    case "taskApproval":
      return {
        key: "safety.change.taskApproval",
        params: { task: c.taskTitle, from: tr(`approval.${c.from}`), to: tr(`approval.${c.to}`) },
      };
    case "taskSandbox":
      return {
        key: "safety.change.taskSandbox",
        params: {
          task: c.taskTitle,
          from: tr(`safety.level.${c.from}`),
          to: tr(`safety.level.${c.to}`),
        },
      };
    case "toolPolicy":
      return { key: "safety.change.toolPolicy", params: { tool: c.tool, task: c.taskTitle } };
    case "envAllow":
      return { key: "safety.change.envAllow", params: { names: c.added.join(", ") } };
    case "hiddenPaths":
      return { key: "safety.change.hiddenPaths", params: { paths: c.removed.join(", ") } };
    case "mcpServer":
      return { key: "safety.change.mcpServer", params: { id: c.id, target: c.target } };
    case "mcpPolicy":
      return c.tool
        ? { key: "safety.change.mcpToolPolicy", params: { id: c.id, tool: c.tool } }
        : { key: "safety.change.mcpPolicy", params: { id: c.id } };
  }
}
