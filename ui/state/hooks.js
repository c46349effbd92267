/**
 * Hooks as the server lists them (`hooks.list`, refreshed on topic `hooks`): the shown
 * task's workspace hooks when they wait for the user's trust (the banner), and every
 * source for Settings → Hooks. Trusting sends the fingerprint that was shown, so a config
 * edited meanwhile is refused rather than trusted unseen.
 *
 * @typedef {import("../../protocol/index.ts").HookSource} HookSource
 */
import { effect, signal } from "@preact/signals";
import { HOOKS_TOPIC } from "../../protocol/index.ts";
import { connState, errorCode, onSync, onTopic, request } from "./connection.js";
import { notifyError } from "./ui.js";
import { currentTask } from "./tasks.js";

/** The shown task's workspace hooks, when untrusted or changed (else null). */
export const hookOffer = signal(/** @type {HookSource|null} */ (null));
/** Every source (Settings → Hooks); null until loaded. */
export const hookSources = signal(/** @type {HookSource[]|null} */ (null));
/** Fingerprints the user answered "Not now" to in this window. */
const dismissed = new Set();
let offerGen = 0;

/** @param {unknown} e */
const quiet = (e) => errorCode(e) === "disconnected" || errorCode(e) === "store_unavailable";

/** @param {string|null} project */
async function loadOffer(project) {
  const gen = ++offerGen;
  if (!project || connState.value !== "open") return void (hookOffer.value = null);
  try {
    const r = await request("hooks.list", { project });
    if (gen !== offerGen) return;
    hookOffer.value = r.sources.find((s) =>
      s.kind === "workspace" && (s.state === "untrusted" || s.state === "changed") &&
      !dismissed.has(s.fingerprint)
    ) ?? null;
  } catch (e) {
    if (gen === offerGen) hookOffer.value = null;
    if (!quiet(e)) notifyError("hooks.error", e);
  }
}

/** Loads every source for Settings → Hooks. */
export async function loadHookSources() {
  try {
    hookSources.value = (await request("hooks.list", {})).sources;
  } catch (e) {
    if (!quiet(e)) notifyError("hooks.error", e);
  }
}

const refresh = () => {
  void loadOffer(currentTask.value?.projectPath ?? null);
  if (hookSources.value) void loadHookSources();
};

effect(() => {
  const path = currentTask.value?.projectPath ?? null;
  if (connState.value === "open") void loadOffer(path);
});
onSync(() => refresh(), () => [HOOKS_TOPIC]);
onTopic(HOOKS_TOPIC, () => refresh());

/**
 * Trusts a workspace's hooks as shown; returns an error message or null.
 * @param {HookSource} source
 */
export async function trustHooks(source) {
  if (!source.project) return null;
  try {
    await request("hooks.trust", { project: source.project, fingerprint: source.fingerprint });
    if (hookOffer.value?.fingerprint === source.fingerprint) hookOffer.value = null;
    refresh();
    return null;
  } catch (e) {
    refresh(); // e.g. changed meanwhile: show what it is now
    return e instanceof Error ? e.message : String(e);
  }
}

/** "Not now": the banner goes away until the config changes (or the page reloads). */
export function dismissHookOffer() {
  const offer = hookOffer.value;
  if (offer) dismissed.add(offer.fingerprint);
  hookOffer.value = null;
}
