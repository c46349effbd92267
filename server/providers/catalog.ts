/**
 * The provider catalog: providers, system settings (default model, effort, approval)
 * and model resolution. One service for the WebSocket ops and the CLI, so both apply
 * the same rules. Model-level operations live in `catalog_models.ts`.
 *
 * Rules: keys are only ever returned masked ({@link toPublic}); the built-in Demo
 * provider is listed first and is read-only; a model reference that cannot be used is
 * an error — never a silent switch to another model.
 *
 * @example
 * const { provider, model } = resolveModel(repos, task.modelRef); // null → default → Demo
 */
import { OpError } from "../errors.ts";
import type { KvRepo } from "../../store/kv.ts";
import { maskKey, type ProviderRepo } from "../../store/providers.ts";
import {
  APPROVAL_MODES,
  type ApprovalMode,
  DEFAULT_APPROVAL,
  SANDBOX_LEVELS,
  type SandboxLevelName,
} from "../../protocol/constants.ts";
import type { ModelRef } from "../../protocol/index.ts";
import {
  API_VERSION_RE,
  PROVIDER_ID_RE,
  PROVIDER_LIMITS,
  type PublicProvider,
  type SystemSettings,
} from "../../protocol/providers.ts";
import {
  type ApiFormat,
  DEMO_MODEL,
  DEMO_PROVIDER,
  type Effort,
  EFFORT_LEVELS,
  type ModelInfo,
  normaliseBaseUrl,
  type ProviderConfig,
} from "../../agent/index.ts";
import { DEMO_PROVIDER_ID } from "../../protocol/constants.ts";
import { PROVIDER_PRESETS, type ProviderPreset } from "../../protocol/presets.ts";
import type { ProviderOptions } from "../../protocol/provider_types.ts";
import type { ModelPrice } from "../../protocol/pricing.ts";
import { builtinPrice } from "./prices.ts";

/** The repositories the catalog needs (a `Store`'s `repos` fits). */
export interface CatalogRepos {
  providers: ProviderRepo;
  kv: KvRepo;
}

/** Server-owned kv keys (clients can only write `ui.*`). */
export const SETTINGS_KEYS = {
  defaultModel: "settings.defaultModel",
  defaultEffort: "settings.defaultEffort",
  defaultApproval: "settings.defaultApproval",
  sandboxLevel: "settings.sandboxLevel",
  sandboxNetwork: "settings.sandboxNetwork",
  commandEnvAllow: "settings.commandEnvAllow",
  hiddenPaths: "settings.hiddenPaths",
  compactModel: "settings.compactModel",
} as const;

/** What every key of SETTINGS_KEYS starts with (getSettings reads them in one query). */
const SETTINGS_PREFIX = "settings.";

/** Credential files and folders hidden from shell commands unless the user changes the list. */
export const DEFAULT_HIDDEN_PATHS: readonly string[] = [
  "~/.ssh",
  "~/.aws",
  "~/.azure",
  "~/.config/gcloud",
  "~/.config/gh",
  "~/.netrc",
  "~/.git-credentials",
  "~/.docker/config.json",
  "~/.kube",
  "~/.gnupg",
];

const strings = (v: unknown): string[] | null =>
  Array.isArray(v) && v.every((x) => typeof x === "string") ? v : null;

export const DEFAULT_EFFORT: Effort = "default";
export { DEFAULT_APPROVAL };

const invalid = (message: string) => new OpError("invalid_args", message);

// ---------- public view ----------

/** A provider without its key: masked key + `hasKey`. */
export function toPublic(p: ProviderConfig): PublicProvider {
  const { apiKey, ...rest } = p;
  return {
    ...rest,
    models: p.models.map((m) => ({ ...m })),
    apiKeyMasked: maskKey(apiKey),
    hasKey: apiKey.length > 0,
    readOnly: p.id === DEMO_PROVIDER_ID,
  };
}

/** Every provider, the built-in Demo first. */
export function listProviders(repos: CatalogRepos): PublicProvider[] {
  return [toPublic(DEMO_PROVIDER), ...repos.providers.list().map(toPublic)];
}

export function presets(): ProviderPreset[] {
  return PROVIDER_PRESETS.map((p) => ({ ...p }));
}

/** The provider with `id` (the Demo included); not_found otherwise. */
export function getProvider(repos: CatalogRepos, id: string): ProviderConfig {
  if (id === DEMO_PROVIDER_ID) return DEMO_PROVIDER;
  const p = repos.providers.get(id);
  if (!p) throw new OpError("not_found", `no provider with id "${id}"`);
  return p;
}

/** A stored provider that may be changed; the Demo is refused with a clear error. */
export function editableProvider(repos: CatalogRepos, id: string): ProviderConfig {
  if (id === DEMO_PROVIDER_ID) {
    throw invalid("the built-in Demo provider is read-only: it cannot be edited or deleted");
  }
  return getProvider(repos, id);
}

// ---------- validation ----------

/**
 * Normalises a user-entered base URL (no trailing slashes, no trailing `/v1`) and
 * checks it is a plain http(s) URL. "" means "not set yet".
 */
export function cleanBaseUrl(input: string): string {
  const u = normaliseBaseUrl(input);
  if (u === "") return "";
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    throw invalid("the base URL is not a valid URL (expected e.g. https://api.example.com)");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid(`the base URL must start with http:// or https:// (got ${url.protocol}//)`);
  }
  if (url.username || url.password) {
    throw invalid("the base URL must not contain a user name or password; use the API key field");
  }
  if (url.search || url.hash) {
    throw invalid("the base URL must not contain a query (?…) or a fragment (#…)");
  }
  return u;
}

/** Trims a key and checks it can travel in an HTTP header. "" = no key. */
export function cleanKey(input: string): string {
  const k = input.trim();
  if (/[^\x21-\x7e]/.test(k)) {
    throw invalid("the API key must be printable ASCII without spaces or line breaks");
  }
  return k;
}

function cleanName(input: string, what: string): string {
  const n = input.replace(/\s+/g, " ").trim();
  if (!n) throw invalid(`${what} must not be blank`);
  return n;
}

/** `My Provider!` → `my-provider`; empty (e.g. all CJK) → `provider`. */
export function slugify(name: string): string {
  const s = name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+/, "").slice(0, PROVIDER_LIMITS.providerIdChars)
    .replace(/-+$/, "");
  return s || "provider";
}

/** `base`, or `base-2`, `base-3` … (at most 40 characters) when taken. */
export function uniqueId(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2;; n++) {
    const suffix = `-${n}`;
    const id = base.slice(0, PROVIDER_LIMITS.providerIdChars - suffix.length).replace(/-+$/, "") +
      suffix;
    if (!taken.has(id)) return id;
  }
}

function uniqueName(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2;; n++) if (!taken.has(`${base} ${n}`)) return `${base} ${n}`;
}

/** "New provider N" with the smallest N not in use. */
export function nextNewName(taken: Set<string>): string {
  for (let n = 1;; n++) if (!taken.has(`New provider ${n}`)) return `New provider ${n}`;
}

/** A model added by hand: enabled, metadata as given (unknown = null). */
export function manualModel(input: {
  id: string;
  name?: string;
  contextWindow?: number | null;
  maxOutput?: number | null;
  vision?: boolean | null;
  price?: ModelPrice | null;
}): ModelInfo {
  return {
    id: input.id,
    name: input.name?.trim() || input.id,
    enabled: true,
    contextWindow: input.contextWindow ?? null,
    maxOutput: input.maxOutput ?? null,
    vision: input.vision ?? null,
    effortLevels: null,
    defaultEffort: null,
    source: "manual",
    price: input.price ?? null,
  };
}

// ---------- providers ----------

export interface AddProviderInput {
  id?: string;
  preset?: string;
  name?: string;
  format?: Exclude<ApiFormat, "demo">;
  baseUrl?: string;
  apiKey?: string;
  models?: string[];
  options?: ProviderOptions;
}

/** `base` with `patch` applied: a value of "" removes the option; each is checked. */
export function cleanOptions(base: ProviderOptions, patch: ProviderOptions = {}): ProviderOptions {
  const out: ProviderOptions = { ...base };
  if (patch.apiVersion !== undefined) {
    const v = patch.apiVersion.trim();
    if (v && !API_VERSION_RE.test(v)) {
      throw invalid(`the API version "${v}" is not valid (expected e.g. 2024-10-21)`);
    }
    if (v) out.apiVersion = v;
    else delete out.apiVersion;
  }
  if (patch.appUrl !== undefined) {
    const u = patch.appUrl.trim();
    if (u && !/^https?:\/\/[^\s]+$/.test(u)) {
      throw invalid(`the app URL must start with http:// or https:// (got "${u}")`);
    }
    if (u) out.appUrl = u;
    else delete out.appUrl;
  }
  return out;
}

/** Appends a provider (enabled). Explicit fields win over the preset's. */
export function addProvider(repos: CatalogRepos, input: AddProviderInput): ProviderConfig {
  const existing = repos.providers.list();
  const preset = input.preset === undefined
    ? null
    : PROVIDER_PRESETS.find((p) => p.id === input.preset);
  if (preset === undefined) throw invalid(`unknown preset "${input.preset}"`);
  const names = new Set(existing.map((p) => p.name));
  const name = input.name !== undefined
    ? cleanName(input.name, "the provider name")
    : preset
    ? uniqueName(preset.name, names)
    : nextNewName(names);
  const taken = new Set([DEMO_PROVIDER_ID, ...existing.map((p) => p.id)]);
  let id: string;
  if (input.id !== undefined) {
    if (!PROVIDER_ID_RE.test(input.id) || input.id.length > PROVIDER_LIMITS.providerIdChars) {
      throw invalid(`provider id "${input.id}" must be 1–40 characters of a-z, 0-9 and "-"`);
    }
    if (input.id === DEMO_PROVIDER_ID) throw invalid(`provider id "demo" is reserved`);
    if (taken.has(input.id)) throw invalid(`a provider with id "${input.id}" already exists`);
    id = input.id;
  } else {
    id = uniqueId(slugify(preset && input.name === undefined ? preset.id : name), taken);
  }
  const baseUrl = cleanBaseUrl(input.baseUrl ?? preset?.baseUrl ?? "");
  const models = [...new Set(input.models ?? [])].map((m) =>
    manualModel({ id: m, price: builtinPrice({ preset: preset?.id, baseUrl }, m) })
  );
  return repos.providers.put({
    id,
    name,
    format: input.format ?? preset?.format ?? "openai-chat-completions",
    baseUrl,
    apiKey: cleanKey(input.apiKey ?? ""),
    enabled: true,
    models,
    preset: preset?.id ?? null,
    options: cleanOptions(preset?.options ?? {}, input.options),
  });
}

export interface ProviderPatch {
  name?: string;
  format?: Exclude<ApiFormat, "demo">;
  baseUrl?: string;
  /** "" clears the stored key. */
  apiKey?: string;
  enabled?: boolean;
  options?: ProviderOptions;
}

export function updateProvider(
  repos: CatalogRepos,
  id: string,
  patch: ProviderPatch,
): ProviderConfig {
  const p = editableProvider(repos, id);
  return repos.providers.put({
    ...p,
    ...(patch.name !== undefined ? { name: cleanName(patch.name, "the provider name") } : {}),
    ...(patch.format !== undefined ? { format: patch.format } : {}),
    ...(patch.baseUrl !== undefined ? { baseUrl: cleanBaseUrl(patch.baseUrl) } : {}),
    ...(patch.apiKey !== undefined ? { apiKey: cleanKey(patch.apiKey) } : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
    ...(patch.options !== undefined
      ? { options: cleanOptions(p.options ?? {}, patch.options) }
      : {}),
  });
}

/** Deletes a provider; the system default is cleared when it pointed there. */
export function deleteProvider(repos: CatalogRepos, id: string): { defaultCleared: boolean } {
  editableProvider(repos, id);
  repos.providers.delete(id);
  const def = getSettings(repos).defaultModel;
  if (def?.providerId !== id) return { defaultCleared: false };
  repos.kv.delete(SETTINGS_KEYS.defaultModel);
  return { defaultCleared: true };
}

// ---------- system settings ----------

function readRef(v: unknown): ModelRef | null {
  const r = v as Partial<ModelRef> | null | undefined;
  return typeof r?.providerId === "string" && typeof r.modelId === "string"
    ? { providerId: r.providerId, modelId: r.modelId }
    : null;
}

export function getSettings(repos: CatalogRepos): SystemSettings {
  // One query for all keys (each tool call reads the settings two or three times).
  const stored = repos.kv.getPrefixed(SETTINGS_PREFIX);
  const get = (key: string) => stored.get(key);
  const effort = get(SETTINGS_KEYS.defaultEffort);
  const approval = get(SETTINGS_KEYS.defaultApproval);
  const sandbox = get(SETTINGS_KEYS.sandboxLevel);
  return {
    defaultModel: readRef(get(SETTINGS_KEYS.defaultModel)),
    defaultEffort: (EFFORT_LEVELS as readonly unknown[]).includes(effort)
      ? effort as Effort
      : DEFAULT_EFFORT,
    defaultApproval: (APPROVAL_MODES as readonly unknown[]).includes(approval)
      ? approval as ApprovalMode
      : DEFAULT_APPROVAL,
    sandboxLevel: (SANDBOX_LEVELS as readonly unknown[]).includes(sandbox)
      ? sandbox as SandboxLevelName
      : "workspace-write",
    sandboxNetwork: get(SETTINGS_KEYS.sandboxNetwork) !== false,
    commandEnvAllow: strings(get(SETTINGS_KEYS.commandEnvAllow)) ?? [],
    hiddenPaths: strings(get(SETTINGS_KEYS.hiddenPaths)) ?? [...DEFAULT_HIDDEN_PATHS],
    compactModel: readRef(get(SETTINGS_KEYS.compactModel)),
  };
}

/** Sets the system default model; it must exist and be enabled (Demo allowed). */
export function setDefaultModel(repos: CatalogRepos, ref: ModelRef): SystemSettings {
  const { provider, model } = usable(repos, ref, "the model");
  repos.kv.set(SETTINGS_KEYS.defaultModel, { providerId: provider.id, modelId: model.id });
  return getSettings(repos);
}

export function setSettings(
  repos: CatalogRepos,
  patch: {
    defaultEffort?: Effort;
    defaultApproval?: ApprovalMode;
    sandboxLevel?: SandboxLevelName;
    sandboxNetwork?: boolean;
    commandEnvAllow?: string[];
    hiddenPaths?: string[];
    compactModel?: ModelRef | null;
  },
): SystemSettings {
  if (patch.compactModel === null) repos.kv.delete(SETTINGS_KEYS.compactModel);
  else if (patch.compactModel !== undefined) {
    const { provider, model } = usable(repos, patch.compactModel, "the compaction model");
    repos.kv.set(SETTINGS_KEYS.compactModel, { providerId: provider.id, modelId: model.id });
  }
  // Lists are kept sorted and without repeats, so a diff of two settings is meaningful.
  if (patch.commandEnvAllow !== undefined) {
    repos.kv.set(SETTINGS_KEYS.commandEnvAllow, [...new Set(patch.commandEnvAllow)].sort());
  }
  if (patch.hiddenPaths !== undefined) {
    const clean = patch.hiddenPaths.map((p) => p.trim().replace(/\/+$/, "")).filter(Boolean);
    repos.kv.set(SETTINGS_KEYS.hiddenPaths, [...new Set(clean)]);
  }
  if (patch.sandboxLevel !== undefined) {
    if (!SANDBOX_LEVELS.includes(patch.sandboxLevel)) throw invalid("unknown sandbox level");
    repos.kv.set(SETTINGS_KEYS.sandboxLevel, patch.sandboxLevel);
  }
  if (patch.sandboxNetwork !== undefined) {
    repos.kv.set(SETTINGS_KEYS.sandboxNetwork, patch.sandboxNetwork);
  }
  if (patch.defaultEffort !== undefined) {
    if (!EFFORT_LEVELS.includes(patch.defaultEffort)) throw invalid("unknown effort level");
    repos.kv.set(SETTINGS_KEYS.defaultEffort, patch.defaultEffort);
  }
  if (patch.defaultApproval !== undefined) {
    if (!APPROVAL_MODES.includes(patch.defaultApproval)) throw invalid("unknown approval mode");
    repos.kv.set(SETTINGS_KEYS.defaultApproval, patch.defaultApproval);
  }
  return getSettings(repos);
}

// ---------- resolution ----------

/** Looks a reference up; throws `code` with a message naming what is missing or off. */
function usable(
  repos: CatalogRepos,
  ref: ModelRef,
  what: string,
  code: "invalid_args" | "not_found" = "invalid_args",
): { provider: ProviderConfig; model: ModelInfo } {
  const name = `${what} ${ref.providerId}/${ref.modelId}`;
  const hint = code === "not_found"
    ? "; choose another model or fix it in Settings → Providers"
    : "";
  const fail = (why: string) => new OpError(code, `${name} cannot be used: ${why}${hint}`);
  const provider = ref.providerId === DEMO_PROVIDER_ID
    ? DEMO_PROVIDER
    : repos.providers.get(ref.providerId);
  if (!provider) throw fail(`there is no provider "${ref.providerId}"`);
  if (!provider.enabled) throw fail(`the provider "${provider.name}" is disabled`);
  const model = provider.models.find((m) => m.id === ref.modelId);
  if (!model) throw fail(`the provider "${provider.name}" has no model "${ref.modelId}"`);
  if (!model.enabled) throw fail(`the model "${model.id}" is disabled`);
  if (provider.format !== "demo" && !provider.baseUrl) {
    throw fail(`the provider "${provider.name}" has no base URL`);
  }
  return { provider, model };
}

/**
 * The provider and model to run: `ref`, else the system default, else the Demo when
 * no default was ever chosen. A reference that cannot be used (missing, disabled, no
 * base URL) throws `not_found` naming the reason — it never falls back to another
 * model.
 */
export function resolveModel(
  repos: CatalogRepos,
  ref: ModelRef | null,
): { provider: ProviderConfig; model: ModelInfo } {
  const target = ref ?? getSettings(repos).defaultModel;
  if (!target) return { provider: DEMO_PROVIDER, model: DEMO_MODEL };
  const what = ref ? "the selected model" : "the default model";
  const r = usable(repos, target, what, "not_found");
  return { provider: r.provider, model: r.model };
}
