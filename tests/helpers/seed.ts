/** Seeds data dirs and stores with a provider `mock` pointing at the mock LLM server. */
import { Store } from "../../store/store.ts";
import type { ApiFormat, ProviderConfig } from "../../agent/providers/types.ts";
import type { ApprovalMode } from "../../protocol/constants.ts";
import { SETTINGS_KEYS } from "../../server/providers/catalog.ts";
import type { ModelPrice } from "../../protocol/pricing.ts";

/** Provider `mock` with one enabled model per id (ids containing "vision" accept images). */
export function mockProvider(
  base: string,
  modelIds: string[],
  format: ApiFormat = "openai-chat-completions",
): ProviderConfig {
  return {
    id: "mock",
    name: "Mock",
    format,
    baseUrl: base,
    apiKey: "sk-mock",
    enabled: true,
    models: modelIds.map((id) => ({
      id,
      name: id,
      enabled: true,
      contextWindow: 128_000,
      maxOutput: 4000,
      vision: id.includes("vision"),
      effortLevels: null,
      defaultEffort: null,
      source: "manual" as const,
      price: null,
    })),
  };
}

/**
 * A new home whose database has provider `mock` with the given models, and optional
 * files in the default workspace. `defaultApproval` stores a default approval mode,
 * as an install does that chose one in Settings (tests of tool cards, not of the
 * approval gate, use "full"). Seed it before a server or CLI starts on it.
 */
export async function homeWithProvider(
  mockBase: string,
  modelIds: string[],
  opts: {
    format?: ApiFormat;
    workspaceFiles?: Record<string, string>;
    /** Parent folder of the new home (default: the system temp folder). */
    dir?: string;
    apiKey?: string;
    defaultApproval?: ApprovalMode;
    /** Prices of some of the models, by model id. */
    prices?: Record<string, ModelPrice>;
  } = {},
): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "ra-seeded-", dir: opts.dir });
  const store = new Store(`${home}/reinagent.db`);
  const base = mockProvider(mockBase, modelIds, opts.format);
  const provider = {
    ...base,
    models: base.models.map((m) => ({ ...m, price: opts.prices?.[m.id] ?? null })),
  };
  store.repos!.providers.put(opts.apiKey ? { ...provider, apiKey: opts.apiKey } : provider);
  if (opts.defaultApproval) {
    store.repos!.kv.set(SETTINGS_KEYS.defaultApproval, opts.defaultApproval);
  }
  store.close();
  const ws = `${home}/DefaultProject`;
  await Deno.mkdir(ws, { recursive: true });
  for (const [name, text] of Object.entries(opts.workspaceFiles ?? {})) {
    await Deno.writeTextFile(`${ws}/${name}`, text);
  }
  return home;
}
