/**
 * The shell sandbox as an attacker sees it: a scripted (hostile) model runs commands
 * through exec_command in the real server process and tries to read the provider keys,
 * the access token, the database, other tasks' uploads and the server's /proc entries,
 * then to switch the sandbox off through the WebSocket with whatever it found.
 *
 * The data folder lives outside /tmp on purpose: the sandbox's private /tmp would
 * otherwise hide it by accident, and real data folders (~/.reinagent) are not there.
 */
import { fileURLToPath } from "node:url";
import { assert, assertEquals } from "./helpers/assert.ts";
import { startTestServer } from "./helpers/server.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { homeWithProvider, mockProvider } from "./helpers/seed.ts";
import { createServices } from "../server/services.ts";
import { Store } from "../store/store.ts";
import { KEY_ENV_NAMES } from "../server/agent/command_policy.ts";
import { sandboxStatus } from "../tools/exec/bwrap.ts";
import type { Entry } from "../protocol/index.ts";

const OUT = fileURLToPath(new URL("../test-output/", import.meta.url));
const ATTACK = fileURLToPath(new URL("./fixtures/sandbox_attack.js", import.meta.url));
const bwrap = await sandboxStatus();

const hex = (n: number) =>
  [...crypto.getRandomValues(new Uint8Array(n))].map((b) => b.toString(16).padStart(2, "0"))
    .join("");

interface Report {
  env: Record<string, string>;
  token: string;
  instance: string;
  db: string;
  wal: string;
  home: string[] | string;
  vapid: string;
  remote: string;
  mcpServers: string;
  mcpOAuth: string;
  lock: string;
  mcp: number[];
  control: (number | string)[];
  uploads: string[] | string;
  attachments: string[] | string;
  otherAttachment: string;
  serverEnviron: string;
  serverCmdline: string;
  ws: string[];
}

/** Waits until the task is neither running nor waiting (polling the server's list). */
async function runEnds(c: TestClient, id: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { tasks } = await c.request("tasks.list");
    const t = tasks.find((x: { id: string }) => x.id === id);
    if (t && t.status !== "running" && t.status !== "waiting") return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`task ${id} did not finish`);
}

/** The JSON report the attack printed, from the exec result the model got. */
function reportOf(entries: Entry[]): Report {
  const text = entries.find((e) => e.role === "tool")?.parts[0]?.text ?? "";
  const line = text.split("\n").find((l) => l.startsWith("{"));
  if (!line) throw new Error(`no report in the command output: ${text.slice(0, 2000)}`);
  return JSON.parse(line);
}

Deno.test({
  name: "sandbox: a hostile command finds no key, no token, no data folder, and cannot escalate",
  ignore: !bwrap.available,
  async fn() {
    await Deno.mkdir(OUT, { recursive: true });
    const key = `sk-live-${hex(20)}`;
    const mock = startMockLlm({ quiet: true });
    const home = await homeWithProvider(mock.base, ["attacker"], {
      dir: OUT,
      apiKey: key,
      workspaceFiles: { "attack.js": await Deno.readTextFile(ATTACK) },
    });
    // Another task's attachment copy in the shared DefaultProject.
    const other = `${home}/DefaultProject/.reinagent/attachments/u${"0".repeat(32)}`;
    await Deno.mkdir(other, { recursive: true });
    await Deno.writeTextFile(`${other}/other.txt`, "another task's private file");
    const seed = new Store(`${home}/reinagent.db`);
    seed.repos!.kv.set(KEY_ENV_NAMES, ["DS_KEY_VAR"]);
    seed.close();
    const s = await startTestServer({
      home,
      env: {
        DS_KEY_VAR: key, // named by `providers add --api-key-env`
        HARMLESS_LOOKING: key, // a provider key under an innocent name
        GITHUB_TOKEN: `ghp_${hex(18)}`,
        AWS_SECRET_ACCESS_KEY: hex(20),
        DB_PASSWORD: "hunter2hunter2",
        REINAGENT_HOME: home,
        DENO_NO_PROMPT: "1",
        PLAIN_SETTING: "visible",
      },
    });
    const c = await TestClient.connect(s.base, s.token);
    // Secrets of the newer surfaces, in the data folder: push keys, remote settings, an MCP
    // server's env; and the control endpoint's secret (in instance.json).
    const pushKey = hex(24), mcpSecret = hex(24), oauthToken = hex(24);
    await Deno.writeTextFile(`${home}/vapid.json`, JSON.stringify({ privateKey: pushKey }));
    await Deno.writeTextFile(`${home}/remote.json`, JSON.stringify({ trustProxy: false }));
    await Deno.writeTextFile(
      `${home}/mcp_servers.json`,
      JSON.stringify([{
        id: "x",
        enabled: false,
        transport: "stdio",
        command: "true",
        args: [],
        env: { SECRET: mcpSecret },
      }]),
    );
    // An MCP server's OAuth tokens, as a sign-in leaves them.
    await Deno.writeTextFile(
      `${home}/mcp_oauth.json`,
      JSON.stringify({ web: { serverUrl: "https://x/mcp", tokens: { access_token: oauthToken } } }),
      { mode: 0o600 },
    );
    const instance = JSON.parse(await Deno.readTextFile(`${home}/instance.json`));
    const control = instance.control as { url: string; secret: string };
    try {
      const upload = await fetch(`${s.base}/api/uploads?name=secret.txt&mime=text/plain`, {
        method: "POST",
        body: "uploaded secret",
        headers: { authorization: `Bearer ${s.token}` },
      });
      assert(upload.ok, await upload.clone().text());
      await upload.body?.cancel();
      mock.register("attacker", {
        turns: [
          {
            toolCalls: [{
              name: "exec_command",
              args: {
                command:
                  `DENO_DIR=/tmp/deno ${Deno.execPath()} run -A attack.js ${home} ${s.base} ` +
                  `${s.process.pid} ${control.url}`,
                timeout: 60,
              },
            }],
          },
          { text: "done" },
        ],
      });
      for (const level of ["workspace-write", "read-only"]) {
        await c.request("settings.set", {
          sandboxLevel: level,
          sandboxNetwork: true,
          defaultApproval: "full",
        });
        const { task } = await c.request("tasks.create", {
          title: `attack ${level}`,
          message: "go",
          options: { model: { providerId: "mock", modelId: "attacker" } },
        });
        await runEnds(c, task.id);
        const { entries } = await c.request("task.subscribe", { id: task.id });
        const r = reportOf(entries);
        const seen = JSON.stringify(r);
        assert(!seen.includes(key), `${level}: the provider key leaked`);
        assert(!seen.includes(s.token), `${level}: the access token leaked`);
        for (const name of ["DS_KEY_VAR", "HARMLESS_LOOKING", "GITHUB_TOKEN", "DB_PASSWORD"]) {
          assert(!(name in r.env), `${level}: ${name} reached the command`);
        }
        assert(!("AWS_SECRET_ACCESS_KEY" in r.env), `${level}: AWS secret reached the command`);
        assert(!Object.keys(r.env).some((n) => n.startsWith("REINAGENT_")), "REINAGENT_*");
        assert(!("DENO_NO_PROMPT" in r.env), "Deno's prompt variable reached the command");
        assertEquals(r.env.PLAIN_SETTING, "visible", "ordinary variables are kept");
        for (const secret of [pushKey, mcpSecret, oauthToken, control.secret]) {
          assert(!seen.includes(secret), `${level}: a data-folder secret leaked`);
        }
        assert(r.mcp.length > 0 && r.mcp.every((st) => st === 401), `${level}: /mcp ${r.mcp}`);
        assert(
          r.control.length > 0 && r.control.every((st) => st === 401 || st === 403),
          `${level}: control endpoint ${r.control}`,
        );
        for (
          const f of [
            "token",
            "instance",
            "db",
            "wal",
            "vapid",
            "remote",
            "mcpServers",
            "mcpOAuth",
            "lock",
          ] as const
        ) {
          assert(r[f].startsWith("ERR"), `${level}: ${f} was readable: ${r[f].slice(0, 80)}`);
        }
        assertEquals(r.home, ["DefaultProject"], `${level}: only the workspace shows`);
        assert(String(r.uploads).startsWith("ERR"), `${level}: uploads listed: ${r.uploads}`);
        assert(r.otherAttachment.startsWith("ERR"), `${level}: another task's attachment read`);
        assert(r.serverEnviron.startsWith("ERR"), `${level}: the server's environ was readable`);
        assert(r.serverCmdline.startsWith("ERR"), `${level}: the server's cmdline was readable`);
        assert(r.ws.length > 0 && !r.ws.includes("ESCALATED"), `${level}: escalated: ${r.ws}`);
        const settings = await c.request("settings.get");
        assertEquals(settings.sandboxLevel, level, "the sandbox level is unchanged");
      }
      // Lowering safety for real is told to every client, naming who did it, and logged.
      const other = await TestClient.connect(s.base, s.token);
      await other.request("settings.set", { sandboxLevel: "off" });
      const lowered = (e: { topic: string; data: unknown }) =>
        e.topic === "notices" && JSON.stringify(e.data).includes('"what":"sandboxLevel"');
      await c.until(() => c.events.some(lowered), "the safety notice");
      const notice = c.events.find(lowered)!.data as {
        by: { kind: string; ip?: string };
        changes: { what: string; from: string; to: string }[];
      };
      assertEquals([notice.by.kind, notice.by.ip], ["cli", "127.0.0.1"]);
      assertEquals(notice.changes, [{ what: "sandboxLevel", from: "read-only", to: "off" }]);
      assert(/safety lowered by the CLI from 127\.0\.0\.1/.test(s.output()), "written to the log");
      await other.close();
    } finally {
      await c.close();
      await s.stop();
      await mock.close();
      await Deno.remove(home, { recursive: true });
    }
  },
});

Deno.test("file tools: a workspace that contains the data folder never shows or reads it", async () => {
  const project = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-proj-" }));
  const home = `${project}/.ra-data`;
  await Deno.mkdir(`${home}/DefaultProject`, { recursive: true });
  const secret = `tok-${hex(16)}`;
  await Deno.writeTextFile(`${home}/token`, secret);
  await Deno.writeTextFile(`${project}/notes.txt`, `not the ${"tok"}en\n`);
  const mock = startMockLlm({ quiet: true });
  const deps = createServices({ home, flushMs: 5 });
  try {
    deps.store.repos!.providers.put({ ...mockProvider(mock.base, ["files"]), id: "mock" });
    mock.register("files", {
      turns: [{
        toolCalls: [
          { name: "read_file", args: { path: ".ra-data/token" } },
          { name: "read_file", args: { path: `${home}/token` } },
          { name: "list_dir", args: {} },
          { name: "glob", args: { pattern: "**/token" } },
          { name: "grep", args: { pattern: "tok-" } },
          { name: "glob", args: { pattern: ".ra-data/**" } },
        ],
      }, { text: "done" }],
    });
    const { task } = deps.tasks!.create({
      title: "files",
      projectPath: project,
      message: "go",
      options: { model: { providerId: "mock", modelId: "files" }, approval: "full" },
    });
    await deps.runs!.start(task.id);
    const results = deps.store.repos!.entries.latest(task.id, 100).filter((e) => e.role === "tool")
      .map((e) => e.parts[0].text ?? "");
    assertEquals(results.length, 6);
    for (const r of results) assert(!r.includes(secret), `the token leaked: ${r}`);
    assert(/hidden from the agent/.test(results[0]), results[0]);
    assert(/hidden from the agent/.test(results[1]), results[1]);
    assert(!results[2].includes(".ra-data"), `list_dir shows the data folder: ${results[2]}`);
    assert(results[2].includes("notes.txt"), results[2]);
    assert(/^No files match/.test(results[3]), `glob found the token: ${results[3]}`);
    assert(/hidden from the agent/.test(results[5]), `glob entered the data folder: ${results[5]}`);
  } finally {
    await deps.runs!.stopAll();
    deps.hub.close();
    deps.store.close();
    await mock.close();
    await Deno.remove(project, { recursive: true });
  }
});
