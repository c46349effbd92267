/**
 * `reinagent acp` driven by the ACP SDK's own client over stdio, against a running
 * server and the mock model: initialize, a new session (a task every window sees), a
 * prompt whose tool call needs permission (asked of the editor, answered there), the
 * streamed text and the tool's result as session updates, then a cancel that stops a
 * slow turn. The same task is followed over the WebSocket as a window would.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { ROOT, RUN_FLAGS, startTestServer } from "./helpers/server.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { client as acpClient, methods, ndJsonStream } from "@agentclientprotocol/sdk";

// deno-lint-ignore no-explicit-any
type Json = any;

Deno.test("acp: session, prompt, permission asked of the editor, tool result, cancel", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("acp", {
    turns: [
      {
        text: "Let me run it.",
        toolCalls: [{ id: "c1", name: "exec_command", args: { command: "echo acp-ok" } }],
      },
      { text: "Done: the command printed acp-ok." },
      { text: "z".repeat(400), chunk: 1, delayMs: 50 },
    ],
  });
  const home = await homeWithProvider(mock.base, ["acp"], { defaultApproval: "ask" });
  const s = await startTestServer({ home });
  const ui = await TestClient.connect(s.base, s.token);
  await ui.request("settings.setDefaultModel", { providerId: "mock", modelId: "acp" });
  const project = await Deno.makeTempDir({ prefix: "ra-acp-project-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: [...RUN_FLAGS, `${ROOT}main.ts`, "acp", "--home", home],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const updates: Json[] = [];
  const permissions: Json[] = [];
  /** Called at the next text chunk (set by the test before it waits). */
  let onChunk: (() => void) | null = null;
  try {
    const app = acpClient({ name: "acp-test-editor" })
      .onNotification(methods.client.session.update, ({ params }) => {
        updates.push(params.update);
        if ((params.update as Json).sessionUpdate === "agent_message_chunk") onChunk?.();
      })
      .onRequest(methods.client.session.requestPermission, ({ params }) => {
        permissions.push(params);
        return { outcome: { outcome: "selected", optionId: "allow" } };
      });
    await app.connectWith(ndJsonStream(child.stdin, child.stdout), async (agent) => {
      const init = await agent.request(methods.agent.initialize, {
        protocolVersion: 1,
        clientCapabilities: {},
      } as Json) as Json;
      assertEquals(init.agentInfo.name, "reinagent");
      const { sessionId } = await agent.request(methods.agent.session.new, {
        cwd: project,
        mcpServers: [],
      }) as Json;

      // The session is a task in the app, in the editor's folder.
      const { tasks } = await ui.request("tasks.list");
      const task = tasks.find((t: Json) => t.id === sessionId);
      assert(task, "the window lists the editor's task");
      assertEquals(task.projectPath, project);
      await ui.request("task.subscribe", { id: sessionId });

      const first = await agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "Run the check" }],
      }) as Json;
      assertEquals(first.stopReason, "end_turn");
      assertEquals(permissions.length, 1, "one permission request");
      assertEquals(permissions[0].toolCall.toolCallId, "c1");
      assertEquals(permissions[0].toolCall.kind, "execute");
      assertEquals(
        permissions[0].options.map((o: Json) => o.kind),
        ["allow_once", "allow_always", "reject_once"],
      );
      const text = updates.filter((u) => u.sessionUpdate === "agent_message_chunk")
        .map((u) => u.content.text).join("");
      assertMatch(text, /Let me run it\./);
      assertMatch(text, /Done: the command printed acp-ok\./);
      const call = updates.find((u) => u.sessionUpdate === "tool_call");
      assertEquals([call.toolCallId, call.kind, call.title], ["c1", "execute", "exec_command"]);
      const result = updates.find((u) => u.sessionUpdate === "tool_call_update");
      assertEquals(result.status, "completed");
      assertMatch(result.content[0].content.text, /acp-ok/);

      // The window saw the same turn: the user message, the tool's result, the answer.
      const snap = await ui.request("task.subscribe", { id: sessionId });
      const seen = JSON.stringify(snap.entries);
      assertMatch(seen, /Run the check/);
      assertMatch(seen, /acp-ok/);

      // Cancel: a slow answer is stopped from the editor.
      const streaming = new Promise<void>((r) => onChunk = r);
      const slow = agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "Write a lot" }],
      });
      await streaming;
      await agent.notify(methods.agent.session.cancel, { sessionId });
      assertEquals((await slow as Json).stopReason, "cancelled");
      await ui.until(
        () =>
          ui.events.some((e) =>
            e.topic === "tasks" && (e.data as Json).task?.id === sessionId &&
            (e.data as Json).task?.lastRun === "stopped"
          ),
        "the window sees the task stopped",
        10_000,
      );
    });
  } catch (e) {
    console.error(await Promise.race([stderr, Promise.resolve("(stderr still open)")]));
    throw e;
  } finally {
    try {
      await child.stdin.close();
    } catch { /* closed by the SDK */ }
    await child.status;
    await stderr;
    await ui.close();
    await s.stop();
    await mock.close();
  }
});
