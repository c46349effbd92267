/** Seeds a data dir before a server or CLI starts on it. */
import { Store } from "../../store/store.ts";
import type { ApiFormat } from "../../server/providers/types.ts";

/** A new home whose database has provider `mock` with the given models (all enabled). */
export async function homeWithProvider(
  mockBase: string,
  modelIds: string[],
  format: ApiFormat = "openai-chat-completions",
): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "ra-seeded-" });
  const store = new Store(`${home}/reinagent.db`);
  store.repos!.providers.put({
    id: "mock",
    name: "Mock",
    format,
    baseUrl: mockBase,
    apiKey: "sk-mock",
    enabled: true,
    models: modelIds.map((id) => ({
      id,
      name: id,
      enabled: true,
      contextWindow: 100000,
      maxOutput: 4000,
      vision: false,
      effortLevels: null,
      defaultEffort: null,
      source: "manual" as const,
    })),
  });
  store.close();
  return home;
}
