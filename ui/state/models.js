/**
 * Providers, models and system defaults for the composer's selectors. Loaded with
 * `settings.subscribe` on every (re)connection (snapshot + subscription to topic
 * `settings`) and re-loaded when the server announces a change there.
 *
 * @typedef {import("../../protocol/index.ts").PublicProvider} PublicProvider
 * @typedef {import("./options.js").SysDefaults} SysDefaults
 */
import { computed, effect, signal } from "@preact/signals";
import { DEFAULT_APPROVAL, SETTINGS_TOPIC } from "../../protocol/index.ts";
import { connState, errorCode, onTopic, request } from "./connection.js";
import { usableGroups } from "./options.js";

/** Every provider (the Demo one included), as the server lists them. */
export const providerList = signal(/** @type {PublicProvider[]} */ ([]));
/** System defaults; null until loaded. */
export const sysDefaults = signal(/** @type {SysDefaults|null} */ (null));
/** "idle" | "loading" | "ready" | "error" */
export const modelsStatus = signal(/** @type {"idle"|"loading"|"ready"|"error"} */ ("idle"));
/** Enabled models of enabled providers, grouped by provider (Demo first). */
export const modelGroups = computed(() => usableGroups(providerList.value));

let gen = 0;
/** @type {ReturnType<typeof setTimeout>|undefined} */
let reloadTimer;

/** Fetches providers and defaults (and subscribes to `settings` events). */
export async function loadModels() {
  const mine = ++gen;
  if (modelsStatus.value !== "ready") modelsStatus.value = "loading";
  try {
    const r = await request("settings.subscribe");
    if (mine !== gen) return;
    providerList.value = r.providers ?? [];
    sysDefaults.value = {
      defaultModel: r.defaultModel ?? null,
      defaultEffort: r.defaultEffort ?? "default",
      defaultApproval: r.defaultApproval ?? DEFAULT_APPROVAL,
    };
    modelsStatus.value = "ready";
  } catch (e) {
    if (mine !== gen) return;
    if (errorCode(e) !== "disconnected") {
      console.warn("reinagent: loading models failed", e);
      modelsStatus.value = "error";
    }
  }
}

/** Re-loads when the list may be stale (e.g. when a menu opens after an error). */
export function ensureModels() {
  if (modelsStatus.value === "error" || modelsStatus.value === "idle") loadModels();
}

if (typeof document !== "undefined") {
  // Every (re)connection: a fresh snapshot, and the subscription on the new socket.
  effect(() => {
    if (connState.value === "open") queueMicrotask(loadModels);
  });
  onTopic(SETTINGS_TOPIC, () => {
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(loadModels, 50); // a burst of changes → one reload
  });
}
