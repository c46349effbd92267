/**
 * Command safety in the UI: notices pushed when someone lowers a safety setting (shown
 * as banners on every client until dismissed) and what commands may see (Settings).
 *
 * @typedef {import("../../protocol/index.ts").SafetyNotice} SafetyNotice
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
