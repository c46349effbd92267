/**
 * A provider that echoes the API key in its error ("Incorrect API key provided: sk-…")
 * never gets the key shown, stored or sent to a client: it is masked at the adapter.
 */
import { assert, assertMatch } from "./helpers/assert.ts";
import { mockProvider } from "./helpers/seed.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { createServices } from "../server/services.ts";
import type { HubClient } from "../server/sessions/hub.ts";
import type { EvtMsg } from "../protocol/index.ts";

const KEY = "sk-wrong-key-0123456789abcdef";

for (
  const format of [
    "openai-chat-completions",
    "openai-responses",
    "anthropic-messages",
    "google-generative-ai",
  ] as const
) {
  Deno.test(`${format}: an error echoing the key keeps it masked everywhere`, async () => {
    const home = await Deno.makeTempDir({ prefix: "ra-keymask-" });
    const mock = startMockLlm({ quiet: true });
    mock.register("echo-key", {
      turns: [{ fail: { status: 401, message: `Incorrect API key provided: ${KEY}.` } }],
    });
    const deps = createServices({ home, flushMs: 5 });
    deps.store.repos!.providers.put({
      ...mockProvider(mock.base, ["echo-key"], format),
      apiKey: KEY,
    });
    const events: EvtMsg[] = [];
    const client: HubClient = {
      id: "t",
      topics: new Set(["tasks"]),
      deliver: (evs) => void events.push(...evs),
    };
    deps.hub.add(client);
    try {
      const { task } = deps.tasks!.create({
        title: "k",
        message: "hi",
        options: { model: { providerId: "mock", modelId: "echo-key" }, approval: "full" },
      });
      client.topics.add(`task:${task.id}`);
      await deps.runs!.start(task.id);
      deps.hub.flush();
      const stored = JSON.stringify(deps.store.repos!.entries.latest(task.id, 50));
      assertMatch(stored, /Incorrect API key provided: sk-…cdef/, "the error is there, masked");
      assert(!stored.includes(KEY), "the key is not in the task's history");
      assert(!JSON.stringify(events).includes(KEY), "nor in what clients were sent");
    } finally {
      await deps.runs!.stopAll();
      deps.hub.close();
      deps.store.close();
      await mock.close();
      await Deno.remove(home, { recursive: true });
    }
  });
}
