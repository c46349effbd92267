/**
 * The workbench's MCP resources and prompts, through the SDK client on `/mcp`: tasks and
 * their transcripts (listed, read, by template, task ids completed), custom slash
 * commands and skills as prompts (expanded with their arguments). Attacks: resource URIs
 * and prompt names that try to leave their place (paths, other schemes) find nothing.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { startTestServer } from "./helpers/server.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { type CallToolResult, Client, StreamableHTTPClientTransport } from "./helpers/mcp_sdk.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

Deno.test("mcp /mcp: tasks as resources, commands and skills as prompts", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("hello", { turns: [{ text: "Hello from the transcript." }] });
  const home = await homeWithProvider(mock.base, ["hello"]);
  await Deno.mkdir(`${home}/commands`, { recursive: true });
  await Deno.writeTextFile(
    `${home}/commands/review.md`,
    "---\ndescription: Review a file carefully\n---\nReview $ARGUMENTS and list the problems.\n",
  );
  await Deno.mkdir(`${home}/skills/tidy`, { recursive: true });
  await Deno.writeTextFile(
    `${home}/skills/tidy/SKILL.md`,
    "---\nname: tidy\ndescription: Tidy a folder\n---\nSort the files by kind.\n",
  );
  await Deno.writeTextFile(`${home}/secret.txt`, "not for MCP clients");
  const s = await startTestServer({ home });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", s.base), {
    requestInit: { headers: { authorization: `Bearer ${s.token}` } },
  });
  const client = new Client({ name: "resources-test", version: "1" });
  try {
    await client.connect(transport);
    const caps = client.getServerCapabilities()!;
    assert(caps.resources && caps.prompts && caps.completions, JSON.stringify(caps));

    const created = await client.callTool({
      name: "create_task",
      arguments: { message: "Say hello", model: { providerId: "mock", modelId: "hello" } },
    }) as CallToolResult;
    assert(!created.isError, JSON.stringify(created));
    const taskId = (created.structuredContent as Json).taskId ??
      (created.structuredContent as Json).task?.id;
    assert(taskId, JSON.stringify(created.structuredContent));
    const waited = await client.callTool({
      name: "wait_for_task",
      arguments: { taskId, timeoutSeconds: 60 },
    }) as CallToolResult;
    assert(!waited.isError, JSON.stringify(waited));

    const { resources } = await client.listResources();
    assert(resources.some((r) => r.uri === `reinagent://task/${taskId}`));
    assert(resources.some((r) => r.uri === `reinagent://task/${taskId}/transcript`));
    const { resourceTemplates } = await client.listResourceTemplates();
    assertEquals(resourceTemplates.map((t) => t.uriTemplate), [
      "reinagent://task/{taskId}",
      "reinagent://task/{taskId}/transcript",
    ]);
    const status = await client.readResource({ uri: `reinagent://task/${taskId}` });
    assertEquals(JSON.parse((status.contents[0] as Json).text).task.id, taskId);
    const transcript = await client.readResource({
      uri: `reinagent://task/${taskId}/transcript`,
    });
    assertEquals(transcript.contents[0].mimeType, "text/markdown");
    assertMatch((transcript.contents[0] as Json).text, /Hello from the transcript\./);
    assertMatch((transcript.contents[0] as Json).text, /Say hello/);

    const done = await client.complete({
      ref: { type: "ref/resource", uri: "reinagent://task/{taskId}" },
      argument: { name: "taskId", value: taskId.slice(0, 3) },
    });
    assert(done.completion.values.includes(taskId));

    const { prompts } = await client.listPrompts();
    const names = prompts.map((p) => p.name);
    assert(names.includes("review"), names.join());
    assert(names.includes("skill/tidy"), names.join());
    assert(!names.includes("help") && !names.includes("clear"), "built-ins are not prompts");
    const review = await client.getPrompt({ name: "review", arguments: { arguments: "main.ts" } });
    assertEquals(
      (review.messages[0].content as Json).text.trim(),
      "Review main.ts and list the problems.",
    );
    const tidy = await client.getPrompt({ name: "skill/tidy" });
    assertMatch(
      (tidy.messages[0].content as Json).text,
      /Use the skill "tidy"[\s\S]*Sort the files/,
    );

    // Attacks: nothing outside the task namespace, nothing by path.
    for (
      const uri of [
        `reinagent://task/../secret.txt`,
        `reinagent://task/${taskId}/../../secret.txt`,
        `file://${home}/secret.txt`,
        `file://${home}/token`,
        `reinagent://task/nope`,
      ]
    ) {
      const r = await client.readResource({ uri }).then((x) => JSON.stringify(x), (e) => e);
      assert(r instanceof Error, `${uri} was read: ${String(r).slice(0, 200)}`);
      assert(!String(r.message).includes("not for MCP clients"));
    }
    for (const name of ["skill/../secret", "../secret", "skill/", "help"]) {
      const r = await client.getPrompt({ name }).then(() => null, (e) => e);
      assert(r instanceof Error, `prompt ${name} answered`);
    }
  } finally {
    await client.close();
    await s.stop();
    await mock.close();
  }
});
