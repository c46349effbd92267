/**
 * Plugins as the server lists them (`plugins.list`, refreshed on topic `plugins`) for
 * Settings → Plugins. Trusting sends the fingerprint that was shown, so hooks edited
 * meanwhile are refused rather than trusted unseen.
 *
 * @typedef {import("../../protocol/index.ts").PluginView} PluginView
 */
import { signal } from "@preact/signals";
import { PLUGINS_TOPIC } from "../../protocol/index.ts";
import { errorCode, onSync, onTopic, request } from "./connection.js";
import { notifyError } from "./ui.js";

/** Every plugin found; null until loaded. */
export const plugins = signal(/** @type {PluginView[]|null} */ (null));

/** @param {unknown} e */
const quiet = (e) => errorCode(e) === "disconnected" || errorCode(e) === "store_unavailable";

export async function loadPlugins() {
  try {
    plugins.value = (await request("plugins.list", {})).plugins;
  } catch (e) {
    if (!quiet(e)) notifyError("plugins.error", e);
  }
}

const refresh = () => {
  if (plugins.value) void loadPlugins();
};
onSync(() => refresh(), () => [PLUGINS_TOPIC]);
onTopic(PLUGINS_TOPIC, () => refresh());

/**
 * @param {() => Promise<unknown>} op
 * @returns {Promise<string|null>} an error message or null
 */
async function act(op) {
  try {
    await op();
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  } finally {
    await loadPlugins();
  }
}

/** @param {PluginView} p @param {boolean} enabled */
export const setPluginEnabled = (p, enabled) =>
  act(() => request("plugins.setEnabled", { path: p.path, enabled }));

/** @param {PluginView} p */
export const trustPlugin = (p) =>
  act(() => request("plugins.trust", { path: p.path, fingerprint: p.fingerprint }));
