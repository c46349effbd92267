/**
 * Protocol ops for providers, models and system settings. Merged into
 * `OP_ARGS` by `protocol.ts`; the UI imports it through `protocol.ts`.
 *
 * API keys never travel to a client: providers are sent as {@link PublicProvider}
 * (masked key + `hasKey`). Changes are pushed on topic `settings` as
 * {@link SettingsEvent}; `settings.subscribe` returns a snapshot and subscribes.
 */
import { arr, bool, int, nullable, obj, oneOf, type Schema, str } from "./schema.ts";
import {
  API_FORMATS,
  type ApiFormat,
  type Effort,
  EFFORT_LEVELS,
  type ModelInfo,
  type ProviderConfig,
} from "./provider_types.ts";
import { PRESET_IDS, type ProviderPreset } from "./presets.ts";
import type { ProviderErrorInfo } from "./provider_types.ts";
import {
  APPROVAL_MODES,
  type ApprovalMode,
  SANDBOX_LEVELS,
  type SandboxLevelName,
} from "./constants.ts";

import type { ModelRef } from "./domain.ts";
import { priceSchema } from "./pricing.ts";

export type { ApiFormat, Effort, ModelInfo, ProviderErrorInfo, ProviderPreset };
export { API_FORMATS, EFFORT_LEVELS };

/** Sizes of the command-safety settings (Settings → General). */
export const LIMITS_SAFETY = { envAllow: 64, hiddenPaths: 64 } as const;
/** An environment variable name the allow-list may hold. */
export const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** A hidden path: absolute, or `~/…` for the user's home; never the root itself. */
// deno-lint-ignore no-control-regex
export const HIDDEN_PATH_RE = /^(~\/|\/)(?!\/*$)[^\u0000-\u001f]{0,1022}$/;
const envName = str({ min: 1, max: 128, pattern: ENV_NAME_RE });
const hiddenPath = str({ min: 2, max: 1024, pattern: HIDDEN_PATH_RE });

/** Context-window presets offered when editing a model. */
export const CONTEXT_PRESETS = [
  32_000,
  64_000,
  128_000,
  200_000,
  256_000,
  512_000,
  1_000_000,
  2_000_000,
] as const;

/** A provider as clients see it: the key is masked, never sent. */
export interface PublicProvider extends Omit<ProviderConfig, "apiKey"> {
  /** e.g. `sk-…abcd`; "" when no key is stored. */
  apiKeyMasked: string;
  hasKey: boolean;
  /** The built-in Demo provider: listed, usable, never edited or deleted. */
  readOnly: boolean;
}

export interface SystemSettings {
  /** null = none chosen (new tasks use the Demo model). */
  defaultModel: ModelRef | null;
  defaultEffort: Effort;
  defaultApproval: ApprovalMode;
  /** Shell-command sandbox. */
  sandboxLevel: SandboxLevelName;
  /** Network inside the shell sandbox. */
  sandboxNetwork: boolean;
  /** Variable names let into commands although they look like secrets (e.g. GH_TOKEN). */
  commandEnvAllow: string[];
  /** Credential paths hidden inside the shell sandbox (`~/` = the user's home). */
  hiddenPaths: string[];
  /** The model that writes compaction summaries; null = each task's own model. */
  compactModel: ModelRef | null;
}

export type ModelTestResult =
  | { ok: true; latencyMs: number; reply: string }
  | { ok: false; latencyMs: number; error: ProviderErrorInfo };

/** Topic `settings`: providers/models or system settings changed; re-fetch. */
/** `sandbox`: bubblewrap became usable or unusable (`shellSandbox` of the snapshot changed). */
export type SettingsEvent =
  | { kind: "providers" }
  | { kind: "settings" }
  | { kind: "sandbox"; available: boolean };
export const SETTINGS_TOPIC = "settings";

export const PROVIDER_LIMITS = {
  providerIdChars: 40,
  providerNameChars: 80,
  modelIdChars: 200,
  modelNameChars: 200,
  baseUrlChars: 2048,
  apiKeyChars: 4096,
  modelsPerProvider: 2000,
  maxTokens: 100_000_000,
} as const;

const L = PROVIDER_LIMITS;
/** Lowercase letters, digits and dashes; starts with a letter or digit. */
export const PROVIDER_ID_RE = /^[a-z0-9][a-z0-9-]*$/;
/** Any printable text without whitespace or control characters. */
// deno-lint-ignore no-control-regex
export const MODEL_ID_RE = /^[^\s\u0000-\u001f\u007f]+$/;

const providerId = str({ min: 1, max: L.providerIdChars, pattern: PROVIDER_ID_RE });
const modelId = str({ min: 1, max: L.modelIdChars, pattern: MODEL_ID_RE });
const providerName = str({ min: 1, max: L.providerNameChars });
const modelName = str({ max: L.modelNameChars });
const baseUrl = str({ max: L.baseUrlChars });
const apiKey = str({ max: L.apiKeyChars });
const tokens = nullable(int({ min: 1, max: L.maxTokens }));
const format = oneOf(API_FORMATS);
/** An Azure `api-version` such as 2024-10-21 or 2025-04-01-preview. */
export const API_VERSION_RE = /^[A-Za-z0-9][A-Za-z0-9.-]{0,39}$/;
/** Options of a provider; "" removes one. */
const options = obj({
  "apiVersion?": str({ max: 40, pattern: /^$|^[A-Za-z0-9][A-Za-z0-9.-]{0,39}$/ }),
  "appUrl?": str({ max: L.baseUrlChars }),
});

export const PROVIDER_OP_ARGS = {
  /** Snapshot of providers + settings, and live `settings` events from then on. */
  "settings.subscribe": obj({}),
  "providers.list": obj({}),
  "providers.presets": obj({}),
  /** Appends a provider ("New provider N" unless named; from a preset when given). */
  "providers.add": obj({
    "id?": providerId,
    "preset?": oneOf(PRESET_IDS),
    "name?": providerName,
    "format?": format,
    "baseUrl?": baseUrl,
    "apiKey?": apiKey,
    "models?": arr(modelId, 500),
    "options?": options,
    /** The environment variable the key came from: withheld from the agent's commands. */
    "keyEnvName?": envName,
  }),
  /** `apiKey: ""` clears the key. */
  "providers.update": obj({
    id: providerId,
    "name?": providerName,
    "format?": format,
    "baseUrl?": baseUrl,
    "apiKey?": apiKey,
    "enabled?": bool,
    "options?": options,
  }),
  "providers.delete": obj({ id: providerId }),
  /** GET /v1/models (or the format's equivalent) and merge into the provider. */
  "models.fetch": obj({ providerId }),
  "models.add": obj({
    providerId,
    model: obj({
      id: modelId,
      "name?": modelName,
      "contextWindow?": tokens,
      "maxOutput?": tokens,
      "vision?": nullable(bool),
      /** Per million tokens in micro-units; absent = the built-in list price if any. */
      "price?": nullable(priceSchema),
    }),
  }),
  "models.update": obj({
    providerId,
    modelId,
    patch: obj({
      "id?": modelId,
      "name?": modelName,
      "enabled?": bool,
      "contextWindow?": tokens,
      "maxOutput?": tokens,
      "vision?": nullable(bool),
      /** null = price unknown. */
      "price?": nullable(priceSchema),
    }),
  }),
  "models.delete": obj({ providerId, modelId }),
  /** Enables (or disables) many models of a provider at once, e.g. all fetched ones. */
  "models.setEnabled": obj({
    providerId,
    modelIds: arr(modelId, PROVIDER_LIMITS.modelsPerProvider),
    enabled: bool,
  }),
  /** One tiny real streaming request; answers the latency or the real error. */
  "models.test": obj({ providerId, modelId }),
  "settings.get": obj({}),
  "settings.setDefaultModel": obj({ providerId, modelId }),
  "settings.set": obj({
    "defaultEffort?": oneOf(EFFORT_LEVELS),
    "defaultApproval?": oneOf(APPROVAL_MODES),
    "sandboxLevel?": oneOf(SANDBOX_LEVELS),
    "sandboxNetwork?": bool,
    "commandEnvAllow?": arr(envName, LIMITS_SAFETY.envAllow),
    "hiddenPaths?": arr(hiddenPath, LIMITS_SAFETY.hiddenPaths),
    /** null = each task's own model. */
    "compactModel?": nullable(obj({ providerId, modelId })),
  }),
} satisfies Record<string, Schema>;

export type ProviderList = { providers: PublicProvider[]; defaultModel: ModelRef | null };

export type ProviderOpResults = {
  "settings.subscribe": ProviderList & SystemSettings & {
    seq: number;
    /** Whether commands run sandboxed now: ok, the level is off, or bwrap is unavailable. */
    shellSandbox: "ok" | "off" | "unavailable";
    /** Whether bubblewrap works on this machine now, whatever the level (tasks keep their own). */
    sandboxAvailable: boolean;
  };
  "providers.list": ProviderList;
  "providers.presets": { presets: ProviderPreset[] };
  "providers.add": { provider: PublicProvider };
  "providers.update": { provider: PublicProvider };
  "providers.delete": { id: string; defaultCleared: boolean };
  "models.fetch": { provider: PublicProvider; added: number; total: number };
  "models.add": { provider: PublicProvider; model: ModelInfo };
  "models.update": { provider: PublicProvider; model: ModelInfo };
  "models.delete": { provider: PublicProvider; defaultCleared: boolean };
  "models.setEnabled": { provider: PublicProvider; changed: number };
  "models.test": ModelTestResult;
  "settings.get": SystemSettings;
  "settings.setDefaultModel": SystemSettings;
  "settings.set": SystemSettings;
};
