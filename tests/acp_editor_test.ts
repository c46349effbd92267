/**
 * `reinagent acp` with an editor that offers its file system and terminal, driven by
 * the ACP SDK's own client (its fs/terminal handlers play the editor and record every
 * call): a read returns the editor's unsaved buffer, not the disk; an edit and a write
 * land in the editor (the disk is untouched); a command runs through terminal/create,
 * wait_for_exit, output and release, and the gate asks the editor first (the editor's
 * terminal has no sandbox). Attacks: an absolute path outside the project, a link out
 * of it (read, write, a command's folder) are refused without the editor being asked.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { ROOT, RUN_FLAGS, startTestServer } from "./helpers/server.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { client as acpClient, methods, ndJsonStream } from "@agentclientprotocol/sdk";

// deno-lint-ignore no-explicit-any
type Json = any;

Deno.test("acp: the editor's buffers, writes and terminal serve the task's tools", async () => {
  const project = await Deno.makeTempDir({ prefix: "ra-acp-editor-" });
  const outside = await Deno.makeTempDir({ prefix: "ra-acp-outside-" });
  await Deno.writeTextFile(`${project}/notes.md`, "disk version\n");
  await Deno.writeTextFile(`${outside}/secret.txt`, "outside secret\n");
  await Deno.symlink(outside, `${project}/link-out`);

  const mock = startMockLlm({ quiet: true });
  mock.register("editor", {
    turns: [
      { toolCalls: [{ id: "r1", name: "read_file", args: { path: "notes.md" } }] },
      {
        toolCalls: [{
          id: "e1",
          name: "edit_file",
          args: { path: "notes.md", old_string: "unsaved buffer", new_string: "edited" },
        }],
      },
      {
        toolCalls: [{
          id: "w1",
          name: "write_file",
          args: { path: "src/new.txt", content: "written by the agent\n" },
        }],
      },
      {
        toolCalls: [{ id: "x1", name: "exec_command", args: { command: "echo via-terminal" } }],
      },
      {
        toolCalls: [
          { id: "a1", name: "read_file", args: { path: `${outside}/secret.txt` } },
          { id: "a2", name: "read_file", args: { path: "link-out/secret.txt" } },
          { id: "a3", name: "write_file", args: { path: "link-out/evil.txt", content: "x" } },
          { id: "a4", name: "edit_file", args: { path: "../x", old_string: "a", new_string: "b" } },
          { id: "a5", name: "exec_command", args: { command: "cat secret.txt", cwd: "link-out" } },
        ],
      },
      { text: "All done." },
    ],
  });
  const home = await homeWithProvider(mock.base, ["editor"], { defaultApproval: "full" });
  const s = await startTestServer({ home });
  const ui = await TestClient.connect(s.base, s.token);
  await ui.request("settings.setDefaultModel", { providerId: "mock", modelId: "editor" });
  const child = new Deno.Command(Deno.execPath(), {
    args: [...RUN_FLAGS, `${ROOT}main.ts`, "acp", "--home", home],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const stderr = new Response(child.stderr).text();

  // ---- the editor: its buffers, its file writes, its terminals; every call recorded ----
  const buffers = new Map([[`${project}/notes.md`, "unsaved buffer line\n"]]);
  const calls: { method: string; params: Json }[] = [];
  const terminals = new Map<string, Promise<{ output: string; code: number }>>();
  const permissions: Json[] = [];
  try {
    const app = acpClient({ name: "acp-test-editor" })
      .onNotification(methods.client.session.update, () => {})
      .onRequest(methods.client.session.requestPermission, ({ params }) => {
        permissions.push(params);
        return { outcome: { outcome: "selected", optionId: "allow" } };
      })
      .onRequest(methods.client.fs.readTextFile, ({ params }) => {
        calls.push({ method: "fs/read_text_file", params });
        return { content: buffers.get(params.path) ?? Deno.readTextFileSync(params.path) };
      })
      .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
        calls.push({ method: "fs/write_text_file", params });
        buffers.set(params.path, params.content);
        return {};
      })
      .onRequest(methods.client.terminal.create, ({ params }) => {
        calls.push({ method: "terminal/create", params });
        const id = `term-${terminals.size + 1}`;
        terminals.set(
          id,
          new Deno.Command(params.command, {
            args: params.args ?? [],
            cwd: params.cwd ?? undefined,
            stdout: "piped",
            stderr: "piped",
          }).output().then((o) => ({
            output: new TextDecoder().decode(o.stdout) + new TextDecoder().decode(o.stderr),
            code: o.code,
          })),
        );
        return { terminalId: id };
      })
      .onRequest(methods.client.terminal.waitForExit, async ({ params }) => {
        calls.push({ method: "terminal/wait_for_exit", params });
        return { exitCode: (await terminals.get(params.terminalId)!).code };
      })
      .onRequest(methods.client.terminal.output, async ({ params }) => {
        calls.push({ method: "terminal/output", params });
        const done = await terminals.get(params.terminalId)!;
        return { output: done.output, truncated: false, exitStatus: { exitCode: done.code } };
      })
      .onRequest(methods.client.terminal.release, ({ params }) => {
        calls.push({ method: "terminal/release", params });
        return {};
      })
      .onRequest(methods.client.terminal.kill, ({ params }) => {
        calls.push({ method: "terminal/kill", params });
        return {};
      });
    await app.connectWith(ndJsonStream(child.stdin, child.stdout), async (agent) => {
      await agent.request(methods.agent.initialize, {
        protocolVersion: 1,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
        clientInfo: { name: "test-editor", version: "1" },
      } as Json);
      const { sessionId } = await agent.request(methods.agent.session.new, {
        cwd: project,
        mcpServers: [],
      }) as Json;
      const done = await agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "Work in my editor" }],
      }) as Json;
      assertEquals(done.stopReason, "end_turn");
      assert(calls.every((c) => c.params.sessionId === sessionId), "each in the editor's session");

      // The results the model got, by call id.
      const snap = await ui.request("task.subscribe", { id: sessionId });
      const results = new Map<string, { text: string; isError: boolean }>(
        snap.entries.filter((e: Json) => e.role === "tool").map((e: Json) => [
          e.parts[0].data.toolCallId,
          { text: e.parts[0].text, isError: e.parts[0].data.isError },
        ]),
      );

      // A read returns the editor's unsaved buffer, not the disk.
      assertMatch(results.get("r1")!.text, /unsaved buffer line/);
      assert(!results.get("r1")!.text.includes("disk version"));
      // The edit read the buffer and wrote the result back to the editor; the disk is as it was.
      assertEquals(results.get("e1")!.isError, false, results.get("e1")!.text);
      assertEquals(buffers.get(`${project}/notes.md`), "edited line\n");
      assertEquals(await Deno.readTextFile(`${project}/notes.md`), "disk version\n");
      // The write went to the editor (a new file in a new folder).
      assertEquals(results.get("w1")!.isError, false, results.get("w1")!.text);
      assertEquals(buffers.get(`${project}/src/new.txt`), "written by the agent\n");
      assert(!(await exists(`${project}/src/new.txt`)), "the editor, not ReinAgent, writes it");

      // The command ran in the editor's terminal, in the project, after the editor allowed
      // an unsandboxed command (asked once for the task).
      const create = calls.find((c) => c.method === "terminal/create")!;
      assertEquals(create.params.cwd, project);
      assertEquals(create.params.args.at(-1), "echo via-terminal");
      assertMatch(results.get("x1")!.text, /via-terminal\n\nExit code: 0/);
      const term = calls.filter((c) => c.method.startsWith("terminal/")).map((c) => c.method);
      assertEquals(term, [
        "terminal/create",
        "terminal/wait_for_exit",
        "terminal/output",
        "terminal/release",
      ]);
      assertEquals(permissions.length, 1, "the unsandboxed command was asked of the editor");
      assertEquals(permissions[0].toolCall.kind, "execute");

      // Outside the project: refused, and the editor was never asked.
      for (const id of ["a1", "a2", "a3", "a5"]) {
        assertEquals(results.get(id)!.isError, true, id);
        assertMatch(results.get(id)!.text, /Access denied: .* is outside the workspace/, id);
      }
      // (An edit of a file never read stops at the stale-read rule, before any path is used.)
      assertMatch(results.get("a4")!.text, /You must read \S+\/x with read_file/);
      const asked = calls.map((c) => JSON.stringify(c.params));
      assert(!asked.some((p) => p.includes(outside) || p.includes("link-out")), asked.join("\n"));
      assertEquals(calls.filter((c) => c.method === "terminal/create").length, 1);
      assertEquals(calls.map((c) => c.method).filter((m) => m.startsWith("fs/")), [
        "fs/read_text_file", // read_file
        "fs/read_text_file", // edit_file reads the buffer …
        "fs/write_text_file", // … and writes it back
        "fs/write_text_file", // write_file (a new file: nothing to read first)
      ]);
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
    await Deno.remove(project, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
