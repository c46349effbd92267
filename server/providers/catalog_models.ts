/**
 * Model-level catalog operations: add, edit, delete, fetch the
 * provider's list and test one model with a tiny real request. Shared by the ops and
 * the CLI. Errors from a provider carry its real text; the key is scrubbed from it.
 */
import { OpError } from "../errors.ts";
import { maskKey } from "../../store/providers.ts";
import { PROVIDER_LIMITS } from "../../protocol/providers.ts";
import type { ModelTestResult } from "../../protocol/providers.ts";
import {
  type CatalogRepos,
  editableProvider,
  getProvider,
  getSettings,
  manualModel,
  SETTINGS_KEYS,
} from "./catalog.ts";
import {
  adapterFor,
  dialectOf,
  errorInfo,
  type ModelInfo,
  type ProviderConfig,
  ProviderError,
  type ProviderErrorInfo,
  scrubInfo,
} from "../../agent/index.ts";
import { DEMO_PROVIDER_ID } from "../../protocol/constants.ts";
import { fetchModelList, mergeModels, timeoutError } from "./models_fetch.ts";
import { builtinPrice } from "./prices.ts";
import {
  CURRENCY_RE,
  MAX_PRICE_MICROS,
  type ModelPrice,
  PRICE_FIELDS,
  type PriceSource,
} from "../../protocol/pricing.ts";

export const TEST_TIMEOUT_MS = 25_000;

const invalid = (message: string) => new OpError("invalid_args", message);

function findModel(p: ProviderConfig, modelId: string): ModelInfo {
  const m = p.models.find((x) => x.id === modelId);
  if (!m) throw new OpError("not_found", `provider "${p.name}" has no model "${modelId}"`);
  return m;
}

function needBaseUrl(p: ProviderConfig): void {
  if (p.format !== "demo" && !p.baseUrl) {
    throw invalid(`set the base URL of "${p.name}" first`);
  }
}

/** The error text shown to the user: message, URL and hint (key masked). */
export function describeProviderError(info: ProviderErrorInfo): string {
  return `${info.message}${info.url ? ` (${info.url})` : ""}. ${info.hint}`;
}

function toInfo(e: unknown, p: ProviderConfig): ProviderErrorInfo {
  const info = e instanceof ProviderError
    ? e.info
    : errorInfo((e as Error)?.message ?? String(e), { chain: [String(e)] });
  return scrubInfo(info, p.apiKey, maskKey(p.apiKey));
}

/** A price as typed: per million tokens in micro-units; null clears it. */
export type PriceInput = Omit<ModelPrice, "source"> & { source?: PriceSource };

export interface ModelInput {
  id: string;
  name?: string;
  contextWindow?: number | null;
  maxOutput?: number | null;
  vision?: boolean | null;
  price?: PriceInput | null;
}

/** A typed price is the user's ("manual") whatever source the client claims. */
function typedPrice(p: PriceInput | null): ModelPrice | null {
  if (p === null) return null;
  if (!CURRENCY_RE.test(p.currency)) {
    throw invalid(`the currency must be a 3-letter ISO code such as USD (got "${p.currency}")`);
  }
  for (const f of PRICE_FIELDS) {
    const v = p[f];
    if (v !== null && !(Number.isSafeInteger(v) && v >= 0 && v <= MAX_PRICE_MICROS)) {
      throw invalid(`the ${f} price must be a whole number of micro-units per million tokens`);
    }
  }
  return {
    currency: p.currency,
    input: p.input,
    output: p.output,
    cacheRead: p.cacheRead,
    cacheWrite: p.cacheWrite,
    source: "manual",
  };
}

/**
 * Adds a model by hand (enabled, source "manual"). Without a typed price it takes the
 * built-in list price of a well-known vendor model, else stays unknown.
 */
export function addModel(
  repos: CatalogRepos,
  providerId: string,
  input: ModelInput,
): { provider: ProviderConfig; model: ModelInfo } {
  const p = editableProvider(repos, providerId);
  if (p.models.some((m) => m.id === input.id)) {
    throw invalid(`provider "${p.name}" already has a model "${input.id}"`);
  }
  if (p.models.length >= PROVIDER_LIMITS.modelsPerProvider) {
    throw invalid(`a provider can hold at most ${PROVIDER_LIMITS.modelsPerProvider} models`);
  }
  const price = input.price !== undefined ? typedPrice(input.price) : builtinPrice(p, input.id);
  const model = manualModel({ ...input, price });
  const provider = repos.providers.put({ ...p, models: [...p.models, model] });
  return { provider, model };
}

export interface ModelPatch {
  id?: string;
  name?: string;
  enabled?: boolean;
  contextWindow?: number | null;
  maxOutput?: number | null;
  vision?: boolean | null;
  /** null = price unknown. */
  price?: PriceInput | null;
}

/** Edits a model; renaming its id keeps the system default pointing at it. */
export function updateModel(
  repos: CatalogRepos,
  providerId: string,
  modelId: string,
  patch: ModelPatch,
): { provider: ProviderConfig; model: ModelInfo } {
  const p = editableProvider(repos, providerId);
  const old = findModel(p, modelId);
  const newId = patch.id ?? old.id;
  if (newId !== old.id && p.models.some((m) => m.id === newId)) {
    throw invalid(`provider "${p.name}" already has a model "${newId}"`);
  }
  const model: ModelInfo = {
    ...old,
    id: newId,
    name: patch.name !== undefined ? patch.name.trim() || newId : old.name,
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
    ...(patch.contextWindow !== undefined ? { contextWindow: patch.contextWindow } : {}),
    ...(patch.maxOutput !== undefined ? { maxOutput: patch.maxOutput } : {}),
    ...(patch.vision !== undefined ? { vision: patch.vision } : {}),
    ...(patch.price !== undefined ? { price: typedPrice(patch.price) } : {}),
  };
  const provider = repos.providers.put({
    ...p,
    models: p.models.map((m) => (m.id === modelId ? model : m)),
  });
  const def = getSettings(repos).defaultModel;
  if (newId !== modelId && def?.providerId === p.id && def.modelId === modelId) {
    repos.kv.set(SETTINGS_KEYS.defaultModel, { providerId: p.id, modelId: newId });
  }
  return { provider, model };
}

/**
 * Switches many models of one provider on or off in one write ("Enable all" after a
 * fetch). Every id must exist, else nothing changes. Answers how many changed.
 */
export function setModelsEnabled(
  repos: CatalogRepos,
  providerId: string,
  modelIds: string[],
  enabled: boolean,
): { provider: ProviderConfig; changed: number } {
  const p = editableProvider(repos, providerId);
  const ids = new Set(modelIds);
  for (const id of ids) findModel(p, id);
  let changed = 0;
  const models = p.models.map((m) => {
    if (!ids.has(m.id) || m.enabled === enabled) return m;
    changed++;
    return { ...m, enabled };
  });
  const provider = changed ? repos.providers.put({ ...p, models }) : p;
  return { provider, changed };
}

/** Deletes a model; the system default is cleared when it was this model. */
export function deleteModel(
  repos: CatalogRepos,
  providerId: string,
  modelId: string,
): { provider: ProviderConfig; defaultCleared: boolean } {
  const p = editableProvider(repos, providerId);
  findModel(p, modelId);
  const provider = repos.providers.put({
    ...p,
    models: p.models.filter((m) => m.id !== modelId),
  });
  const def = getSettings(repos).defaultModel;
  const hit = def?.providerId === p.id && def.modelId === modelId;
  if (hit) repos.kv.delete(SETTINGS_KEYS.defaultModel);
  return { provider, defaultCleared: hit };
}

/**
 * Fetches the provider's model list and merges it (new models disabled, user edits
 * kept). A provider failure becomes an error with the real status/text/URL.
 * `total` is the number of models the provider listed.
 */
export async function fetchModels(
  repos: CatalogRepos,
  providerId: string,
  opts: { timeoutMs?: number; fetchFn?: typeof fetch } = {},
): Promise<{ provider: ProviderConfig; added: number; total: number }> {
  if (providerId === DEMO_PROVIDER_ID) {
    throw invalid("the built-in Demo provider has a fixed model list; there is nothing to fetch");
  }
  const p = editableProvider(repos, providerId);
  needBaseUrl(p);
  if (dialectOf(p) === "azure" && p.format === "openai-chat-completions") {
    throw invalid(
      `Azure OpenAI does not list the deployments of "${p.name}" for an API key: add each ` +
        "deployment's name as a model (Add model)",
    );
  }
  let listed;
  try {
    listed = await fetchModelList(p, opts);
  } catch (e) {
    throw new OpError("upstream", `fetching models failed: ${describeProviderError(toInfo(e, p))}`);
  }
  const fresh = getProvider(repos, providerId); // re-read: it may have changed meanwhile
  const priced = listed.map((
    m,
  ) => (m.price ? m : { ...m, price: builtinPrice(fresh, m.id) }));
  const { models, added } = mergeModels(fresh.models, priced);
  const provider = repos.providers.put({ ...fresh, models });
  return { provider, added, total: listed.length };
}

/**
 * Sends one tiny real streaming request ("ping", system "Reply with OK.", no tools,
 * effort default, 16 tokens) through the provider's adapter. Never retried; a failure
 * is answered with the real error, a timeout after `timeoutMs`.
 */
export async function testModel(
  repos: CatalogRepos,
  providerId: string,
  modelId: string,
  opts: { timeoutMs?: number } = {},
): Promise<ModelTestResult> {
  const p = getProvider(repos, providerId);
  const model = findModel(p, modelId);
  needBaseUrl(p);
  const ms = opts.timeoutMs ?? TEST_TIMEOUT_MS;
  const ac = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ac.abort();
  }, ms);
  const t0 = performance.now();
  const elapsed = () => Math.round(performance.now() - t0);
  let reply = "";
  try {
    const adapter = await adapterFor(p.format);
    const stream = adapter.stream({
      provider: p,
      model,
      system: "Reply with OK.",
      messages: [{ role: "user", content: [{ type: "text", text: "ping" }] }],
      tools: [],
      effort: "default",
      maxTokens: 16,
    }, ac.signal);
    for await (const ev of stream) {
      if (ev.type === "text") reply += ev.delta;
    }
    if (timedOut) throw timeoutError(null, ms);
    return { ok: true, latencyMs: elapsed(), reply: reply.trim().slice(0, 200) };
  } catch (e) {
    const err = timedOut ? timeoutError(null, ms) : e;
    return { ok: false, latencyMs: elapsed(), error: toInfo(err, p) };
  } finally {
    clearTimeout(timer);
  }
}
