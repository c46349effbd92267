/**
 * Providers, models and system settings as the server reports them, plus the state of
 * the Settings view. Loaded with `settings.subscribe` on every (re)connection and
 * refreshed when the server announces a change on topic `settings`. API keys never
 * come from the server; a key typed in this page stays in memory for show/hide only.
 *
 * @typedef {import("../../protocol/index.ts").PublicProvider} PublicProvider
 * @typedef {import("../../protocol/index.ts").ModelRef} ModelRef
 * @typedef {import("../../protocol/index.ts").ProviderPreset} ProviderPreset
 * @typedef {import("../../protocol/index.ts").ModelTestResult} ModelTestResult
 * @typedef {import("../../protocol/index.ts").ModelInfo} ModelInfo
 * @typedef {import("../../protocol/index.ts").SystemSettings} SystemSettings
 * @typedef {import("../../protocol/index.ts").OpName} OpName
 * @typedef {import("../../protocol/index.ts").OpResults} OpResults
 * @typedef {import("../../protocol/index.ts").OpArgs} OpArgs
 * @typedef {{running: true} | ModelTestResult | {ok: false, message: string}} ModelTestState
 * @typedef {{running: true} | {added: number, total: number} | {error: string}} FetchState
 */
import { batch, computed, effect, signal } from "@preact/signals";
import { DEFAULT_APPROVAL, SETTINGS_TOPIC } from "../../protocol/index.ts";
import { connState, errorCode, onTopic, request } from "./connection.js";
import { currentId, currentTask } from "./tasks.js";
import { drawerOpen, notifyError } from "./ui.js";

/** @type {import("@preact/signals").Signal<PublicProvider[]>} */
export const providers = signal([]);
export const defaultModel = signal(/** @type {ModelRef|null} */ (null));
export const defaultEffort = signal("default");
/** The model that writes compaction summaries (null = each task's own model). */
export const compactModel = signal(/** @type {ModelRef|null} */ (null));
export const defaultApproval = signal(DEFAULT_APPROVAL);
/** Shell-command sandbox level and network switch (bubblewrap when available). */
export const sandboxLevel = signal("workspace-write");
export const sandboxNetwork = signal(true);
/** Whether commands run sandboxed now: "ok", "off" (the level) or "unavailable" (no bwrap). */
export const shellSandbox = signal(/** @type {"ok"|"off"|"unavailable"} */ ("ok"));
/** Whether bubblewrap works on the server's machine now (pushed when it changes). */
export const sandboxAvailable = signal(true);
/**
 * How the shown task's commands would run: its own level (a draft: the system level),
 * "unavailable" when that level sandboxes but the machine has no working bubblewrap.
 */
export const taskSandbox = computed(() => {
  const level = (currentId.value !== null && currentTask.value?.settings.sandbox) ||
    sandboxLevel.value;
  if (level === "off") return /** @type {const} */ ("off");
  return sandboxAvailable.value
    ? /** @type {const} */ ("ok")
    : /** @type {const} */ ("unavailable");
});
/** Variable names let into commands although they look like secrets. */
export const commandEnvAllow = signal(/** @type {string[]} */ ([]));
/** Credential paths hidden from commands. */
export const hiddenPaths = signal(/** @type {string[]} */ ([]));
export const presetList = signal(/** @type {ProviderPreset[]} */ ([]));
export const settingsLoaded = signal(false);

/** Whether the Settings view replaces the conversation. */
export const settingsOpen = signal(false);
/** The Settings tab shown. */
export const settingsTab = signal(
  /** @type {"providers"|"mcp"|"assistants"|"skills"|"memory"|"notes"|"hooks"|"plugins"|"automations"|"usage"|"remote"|"general"|"data"|"about"} */ ("providers"),
);
/** Provider shown in the detail pane (null = the list, on phones). */
export const selectedProviderId = signal(/** @type {string|null} */ (null));
/**
 * The "Add provider" form when it is open (in place of the details): blank, or
 * prefilled from a preset; null = closed. Nothing is stored before its Save.
 * @type {import("@preact/signals").Signal<{preset: ProviderPreset|null}|null>}
 */
export const providerForm = signal(null);

/** Per-model connectivity test state, by `providerId/modelId`. */
export const modelTests = signal(/** @type {Map<string, ModelTestState>} */ (new Map()));
/** Per-provider fetch state. */
export const fetchStates = signal(/** @type {Map<string, FetchState>} */ (new Map()));

/** Keys typed in this page (never sent back by the server), for the show/hide toggle. */
export const typedKeys = new Map();

export const selectedProvider = computed(() =>
  providers.value.find((p) => p.id === selectedProviderId.value) ?? null
);

/** Enabled models of enabled providers, grouped by provider (for model pickers). */
export const usableModels = computed(() =>
  providers.value.filter((p) => p.enabled).map((p) => ({
    provider: p,
    models: p.models.filter((m) => m.enabled),
  })).filter((g) => g.models.length > 0)
);

/** @param {string} pid @param {string} mid */
export const testKey = (pid, mid) => `${pid}/${mid}`;

/** @param {PublicProvider} p */
function putProvider(p) {
  const list = providers.value;
  const i = list.findIndex((x) => x.id === p.id);
  providers.value = i < 0 ? [...list, p] : list.map((x) => (x.id === p.id ? p : x));
}

/**
 * @param {SystemSettings & {shellSandbox?: "ok"|"off"|"unavailable", sandboxAvailable?: boolean}} s
 */
function applySettings(s) {
  defaultModel.value = s.defaultModel ?? null;
  if (s.compactModel !== undefined) compactModel.value = s.compactModel;
  if (s.defaultEffort) defaultEffort.value = s.defaultEffort;
  if (s.defaultApproval) defaultApproval.value = s.defaultApproval;
  if (s.sandboxLevel) sandboxLevel.value = s.sandboxLevel;
  if (typeof s.sandboxNetwork === "boolean") sandboxNetwork.value = s.sandboxNetwork;
  if (s.shellSandbox) shellSandbox.value = s.shellSandbox;
  if (typeof s.sandboxAvailable === "boolean") sandboxAvailable.value = s.sandboxAvailable;
  if (Array.isArray(s.commandEnvAllow)) commandEnvAllow.value = s.commandEnvAllow;
  if (Array.isArray(s.hiddenPaths)) hiddenPaths.value = s.hiddenPaths;
}

let loadGen = 0;
/** Fetches the snapshot and (re)subscribes to `settings` events. */
export async function loadSettings() {
  const gen = ++loadGen;
  try {
    const r = await request("settings.subscribe");
    if (gen !== loadGen) return;
    batch(() => {
      providers.value = r.providers;
      applySettings(r);
      settingsLoaded.value = true;
    });
    if (presetList.value.length === 0) {
      presetList.value = (await request("providers.presets")).presets;
    }
  } catch (e) {
    const code = errorCode(e);
    if (code === "store_unavailable") settingsLoaded.value = true; // the store banner explains
    else if (code !== "disconnected") notifyError("error.settings", e);
  }
}

let refreshTimer = /** @type {ReturnType<typeof setTimeout>|undefined} */ (undefined);
onTopic(SETTINGS_TOPIC, () => {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(loadSettings, 50);
});

let wasOpen = false;
effect(() => {
  const open = connState.value === "open";
  if (open && !wasOpen) loadSettings();
  wasOpen = open;
});

// ---------- navigation ----------

const HASH = "#/settings";
/** Whether this page pushed the `#/settings` history entry (then closing goes back). */
let pushed = false;

/** Opens the Settings view (pushes a history entry so Back closes it). */
/** Opens Settings on its MCP tab (the sidebar's MCP entry). */
export function openMcp() {
  settingsTab.value = "mcp";
  openSettings();
}

/** Opens Settings on its Skills tab (the sidebar's Skills entry). */
export function openSkills() {
  openSettingsTab("skills");
}

/**
 * Opens Settings on another tab (the sidebar's entries).
 * @param {"skills"|"automations"|"usage"|"notes"|"general"} tab
 */
export function openSettingsTab(tab) {
  settingsTab.value = tab;
  openSettings();
}

/**
 * The rules section Settings scrolls to once shown ("task": the shown task's own, from
 * the approval menu's "Edit rules"); cleared when it has.
 */
export const rulesFocus = signal(/** @type {"task"|null} */ (null));

/** Opens Settings → General at the shown task's own rules. */
export function openTaskRules() {
  rulesFocus.value = "task";
  openSettingsTab("general");
}

export function openSettings() {
  drawerOpen.value = false;
  if (settingsOpen.value) return;
  settingsOpen.value = true;
  if (location.hash !== HASH) {
    history.pushState(null, "", location.pathname + location.search + HASH);
    pushed = true;
  }
}

/** Closes the Settings view and restores the URL of the task shown. */
export function closeSettings() {
  if (!settingsOpen.value) return;
  settingsOpen.value = false;
  if (location.hash !== HASH) return;
  if (pushed) {
    pushed = false;
    history.back(); // the entry before it names the task shown (or the draft)
    return;
  }
  const want = currentId.value ? `#/t/${currentId.value}` : "";
  history.replaceState(null, "", location.pathname + location.search + want);
}

if (typeof addEventListener === "function") {
  if (location.hash === HASH) settingsOpen.value = true;
  addEventListener("hashchange", () => {
    settingsOpen.value = location.hash === HASH;
    if (!settingsOpen.value) pushed = false;
  });
  // Showing another task (or the draft) from anywhere leaves Settings. The task view
  // writes its own URL right after (replacing the `#/settings` entry): no history move.
  let lastId = currentId.value;
  effect(() => {
    const id = currentId.value;
    if (id !== lastId) {
      settingsOpen.value = false;
      pushed = false;
    }
    lastId = id;
  });
}

// ---------- actions (each returns an error message, or null when it worked) ----------

/** @param {unknown} e */
const message = (e) => (e instanceof Error ? e.message : String(e));

/**
 * @template {OpName} K
 * @param {K} op
 * @param {OpArgs[K]} args
 * @returns {Promise<{result: OpResults[K], error: null} | {result: null, error: string}>}
 */
async function call(op, args) {
  try {
    return { result: await request(op, args), error: null };
  } catch (e) {
    return { result: null, error: message(e) };
  }
}

/**
 * Stores a new provider from the "Add provider" form and shows it (the key typed in
 * the form can then be revealed, like one typed on the detail page).
 * @param {OpArgs["providers.add"] & {apiKey: string}} v
 * @returns {Promise<{id: string, error: null} | {id: null, error: string}>}
 */
export async function createProvider(v) {
  const { apiKey, ...rest } = v;
  const r = await call("providers.add", { ...rest, ...(apiKey ? { apiKey } : {}) });
  if (r.error !== null) return { id: null, error: r.error };
  const p = r.result.provider;
  putProvider(p);
  if (apiKey) typedKeys.set(p.id, apiKey);
  selectedProviderId.value = p.id;
  return { id: p.id, error: null };
}

/**
 * @param {string} id
 * @param {Omit<OpArgs["providers.update"], "id">} patch
 */
export async function updateProvider(id, patch) {
  const r = await call("providers.update", { id, ...patch });
  if (r.error === null) putProvider(r.result.provider);
  return r.error;
}

/** @param {string} id */
export async function deleteProvider(id) {
  const r = await call("providers.delete", { id });
  if (r.error !== null) return r.error;
  batch(() => {
    providers.value = providers.value.filter((p) => p.id !== id);
    if (r.result.defaultCleared) defaultModel.value = null;
    if (selectedProviderId.value === id) selectedProviderId.value = null;
  });
  typedKeys.delete(id);
  return null;
}

/** @param {string} id */
export async function fetchModels(id) {
  const set = (/** @type {FetchState} */ v) => {
    const m = new Map(fetchStates.value);
    m.set(id, v);
    fetchStates.value = m;
  };
  set({ running: true });
  const r = await call("models.fetch", { providerId: id });
  if (r.error !== null) return set({ error: r.error });
  putProvider(r.result.provider);
  set({ added: r.result.added, total: r.result.total });
}

/**
 * @param {string} providerId
 * @param {OpArgs["models.add"]["model"]} model
 */
export async function addModel(providerId, model) {
  const r = await call("models.add", { providerId, model });
  if (r.error === null) putProvider(r.result.provider);
  return r.error;
}

/**
 * @param {string} providerId
 * @param {string} modelId
 * @param {Record<string, unknown>} patch
 */
export async function updateModel(providerId, modelId, patch) {
  const r = await call("models.update", { providerId, modelId, patch });
  if (r.error !== null) return r.error;
  putProvider(r.result.provider);
  const d = defaultModel.value;
  if (patch.id && d?.providerId === providerId && d.modelId === modelId) {
    defaultModel.value = { providerId, modelId: String(patch.id) };
  }
  return null;
}

/**
 * Enables many models of a provider in one request ("Enable all" after a fetch).
 * @param {string} providerId
 * @param {string[]} modelIds
 */
export async function enableModels(providerId, modelIds) {
  const r = await call("models.setEnabled", { providerId, modelIds, enabled: true });
  if (r.error === null) putProvider(r.result.provider);
  return r.error;
}

/**
 * @param {string} providerId
 * @param {string} modelId
 */
export async function deleteModel(providerId, modelId) {
  const r = await call("models.delete", { providerId, modelId });
  if (r.error !== null) return r.error;
  putProvider(r.result.provider);
  if (r.result.defaultCleared) defaultModel.value = null;
  return null;
}

/**
 * @param {string} providerId
 * @param {string} modelId
 */
export async function testModel(providerId, modelId) {
  const key = testKey(providerId, modelId);
  const set = (/** @type {ModelTestState} */ v) => {
    const m = new Map(modelTests.value);
    m.set(key, v);
    modelTests.value = m;
  };
  set({ running: true });
  const r = await call("models.test", { providerId, modelId });
  set(r.error === null ? r.result : { ok: false, message: r.error });
}

/**
 * @param {string} providerId
 * @param {string} modelId
 */
export async function setDefaultModel(providerId, modelId) {
  const r = await call("settings.setDefaultModel", { providerId, modelId });
  if (r.error === null) applySettings(r.result);
  return r.error;
}

/** @param {OpArgs["settings.set"]} patch */
export async function setGeneral(patch) {
  const r = await call("settings.set", patch);
  if (r.error === null) applySettings(r.result);
  else notifyError("error.settings", new Error(r.error));
  return r.error;
}
