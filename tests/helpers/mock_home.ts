/**
 * A temporary data dir whose database already has a provider "mock" pointing at the
 * mock LLM server (one enabled model per scenario name), and optionally files in the
 * default workspace. Seed it BEFORE starting the server.
 */
import { Store } from "../../store/store.ts";

export async function homeWithMockProvider(
  mockBase: string,
  modelIds: string[],
  workspaceFiles: Record<string, string> = {},
): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "ra-run-ui-" });
  const store = new Store(`${home}/reinagent.db`);
  store.repos!.providers.put({
    id: "mock",
    name: "Mock",
    format: "openai-chat-completions",
    baseUrl: mockBase,
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
    })),
  });
  store.close();
  const ws = `${home}/DefaultProject`;
  await Deno.mkdir(ws, { recursive: true });
  for (const [name, text] of Object.entries(workspaceFiles)) {
    await Deno.writeTextFile(`${ws}/${name}`, text);
  }
  return home;
}
