/**
 * The configuration backup: settings, providers, MCP servers and projects as
 * one JSON with a manifest; keys only when asked. A restore into a fresh data dir (the
 * CLI, its own process) brings them back; bad input (newer version, invalid content, a
 * corrupt MCP file here) is refused and changes nothing; WebDAV upload and restore go
 * through a small real PUT/GET server with Basic auth.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { opHarness } from "./helpers/op_context.ts";
import { ROOT, RUN_FLAGS } from "./helpers/server.ts";
import { mockProvider } from "./helpers/seed.ts";
import { Store } from "../store/store.ts";
import { SETTINGS_KEYS } from "../server/providers/catalog.ts";
import { NOTICES_TOPIC } from "../protocol/safety.ts";

async function cli(args: string[], env: Record<string, string> = {}) {
  const r = await new Deno.Command(Deno.execPath(), {
    args: [...RUN_FLAGS, `${ROOT}main.ts`, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...env },
  }).output();
  const dec = new TextDecoder();
  return { code: r.code, out: dec.decode(r.stdout), err: dec.decode(r.stderr) };
}

const MCP = [
  {
    id: "files",
    enabled: true,
    transport: "stdio",
    command: "node",
    args: ["server.js"],
    env: { GITHUB_TOKEN: "ghp_supersecretvalue123", LOG_LEVEL: "debug" },
  },
];

/** A data dir with a provider (and key), settings, an MCP server with a secret, a project. */
async function seededHome(): Promise<{ home: string; project: string }> {
  const home = await Deno.makeTempDir({ prefix: "ra-backup-a-" });
  const project = await Deno.makeTempDir({ prefix: "ra-backup-proj-" });
  const store = new Store(`${home}/reinagent.db`);
  const r = store.repos!;
  r.providers.put({ ...mockProvider("http://127.0.0.1:9", ["m1"]), apiKey: "sk-very-secret-key" });
  r.kv.set(SETTINGS_KEYS.defaultApproval, "edit");
  r.kv.set(SETTINGS_KEYS.defaultModel, { providerId: "mock", modelId: "m1" });
  r.kv.set("ui.theme", "dark");
  r.kv.set("mcp.workspaceTrust", { "/x": true }); // a trust decision: never carried
  r.projects.add({ id: "p1", path: project, name: "My project" });
  store.close();
  await Deno.writeTextFile(`${home}/mcp_servers.json`, JSON.stringify(MCP));
  return { home, project };
}

/** What a restore may change, to prove a refused one changed nothing. */
async function configOf(home: string) {
  const store = new Store(`${home}/reinagent.db`);
  try {
    const r = store.repos!;
    return {
      providers: r.providers.list(),
      settings: r.imports.settingsRows(["settings.", "ui.", "notify."]),
      projects: r.projects.list().map((p) => [p.path, p.name]),
      mcp: await Deno.readTextFile(`${home}/mcp_servers.json`).catch(() => null),
    };
  } finally {
    store.close();
  }
}

Deno.test("backup: without keys by default; restore in a fresh data dir brings everything back", async () => {
  const { home, project } = await seededHome();
  const fresh = await Deno.makeTempDir({ prefix: "ra-backup-b-" });
  try {
    const h = await opHarness({ home });
    const plain = await h.op("backup.export", {});
    const withKeys = await h.op("backup.export", { includeKeys: true });
    await h.close();
    assertEquals(plain.includesKeys, false);
    assert(!plain.content.includes("sk-very-secret-key"), "no provider key");
    assert(!plain.content.includes("ghp_supersecretvalue123"), "no MCP secret");
    assert(!plain.content.includes("workspaceTrust"), "no trust decisions");
    const doc = JSON.parse(plain.content);
    assertEquals(doc.manifest.kind, "reinagent-backup");
    assertEquals(doc.manifest.sections, { settings: 3, providers: 1, mcpServers: 1, projects: 1 });
    assert(withKeys.content.includes("sk-very-secret-key"));

    const file = `${fresh}/../${fresh.split("/").pop()}-backup.json`;
    await Deno.writeTextFile(file, plain.content);
    const r = await cli(["restore", file, "--home", fresh]);
    assertEquals(r.code, 0, r.err);
    assertMatch(r.out, /restored 3 settings, 1 providers, 1 MCP servers, 1 new projects/);
    assertMatch(r.out, /skipped: MCP server files: env GITHUB_TOKEN was not in the backup/);
    const got = await configOf(fresh);
    const want = await configOf(home);
    assertEquals(got.settings, want.settings.filter(([k]) => k !== "mcp.workspaceTrust"));
    assertEquals(got.projects, [[project, "My project"]]);
    assertEquals(got.providers[0].apiKey, "", "no key was in the backup");
    assertEquals(
      got.providers.map((p) => ({ ...p, apiKey: "" })),
      want.providers.map((p) => ({ ...p, apiKey: "" })),
    );
    assertEquals(JSON.parse(got.mcp!)[0].env, { LOG_LEVEL: "debug" });
    const saved = r.out.match(/before the restore is in (\S+)/)![1];
    assert(saved.startsWith(`${fresh}/backups/`), saved);

    // The backup with keys fills them in; a later one without keys keeps them.
    await Deno.writeTextFile(file, withKeys.content);
    assertEquals((await cli(["restore", file, "--home", fresh])).code, 0);
    await Deno.writeTextFile(file, plain.content);
    assertEquals((await cli(["restore", file, "--home", fresh])).code, 0);
    const final = await configOf(fresh);
    assertEquals(final.providers[0].apiKey, "sk-very-secret-key");
    assertEquals(JSON.parse(final.mcp!)[0].env.GITHUB_TOKEN, "ghp_supersecretvalue123");
    await Deno.remove(file);
  } finally {
    for (const d of [home, fresh, project]) await Deno.remove(d, { recursive: true });
  }
});

Deno.test("backup: a newer version, invalid content or a corrupt MCP file here are refused and change nothing", async () => {
  const { home, project } = await seededHome();
  try {
    const h = await opHarness({ home });
    const good = JSON.parse((await h.op("backup.export", {})).content);
    const before = await configOf(home);
    const cases: [unknown, RegExp][] = [
      [
        { ...good, manifest: { ...good.manifest, version: 99 } },
        /version 99, made by a newer ReinAgent/,
      ],
      [{ settings: {} }, /not a ReinAgent backup/],
      [{ ...good, providers: [{ id: "Bad Id!", name: "", format: "x" }] }, /providers\[0\]\.id/],
      [{ ...good, settings: { "mcp.workspaceTrust": {} } }, /not restorable/],
      [{ ...good, projects: [{ path: "relative/path", name: "x" }] }, /absolute path/],
      [{ ...good, mcpServers: [{ id: "", command: 3 }] }, /invalid/],
    ];
    for (const [doc, re] of cases) {
      const e = await h.fail("backup.restore", { text: JSON.stringify(doc) });
      assertEquals(e.code, "invalid_args");
      assertMatch(e.message, re);
    }
    assertEquals((await h.fail("backup.restore", { text: "{oops" })).code, "invalid_args");
    assertEquals(await configOf(home), before, "nothing changed");

    // A corrupt MCP file here is never overwritten: the restore stops before writing.
    await Deno.writeTextFile(`${home}/mcp_servers.json`, "[{broken");
    const e = await h.fail("backup.restore", { text: JSON.stringify(good) });
    assertMatch(e.message, /not valid JSON/);
    assertEquals(await Deno.readTextFile(`${home}/mcp_servers.json`), "[{broken");
    assertEquals((await configOf(home)).settings, before.settings);
    await h.close();
  } finally {
    for (const d of [home, project]) await Deno.remove(d, { recursive: true });
  }
});

Deno.test("backup: WebDAV upload (CLI) and restore, with Basic auth; a refused login is an error", async () => {
  const files = new Map<string, string>();
  const auth = `Basic ${btoa("me:pw")}`;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    if (req.headers.get("authorization") !== auth) return new Response("no", { status: 401 });
    const path = new URL(req.url).pathname;
    if (req.method === "PUT") {
      files.set(path, await req.text());
      return new Response(null, { status: 201 });
    }
    if (req.method === "GET") {
      const f = files.get(path);
      return f === undefined ? new Response("none", { status: 404 }) : new Response(f);
    }
    return new Response(null, { status: 405 });
  });
  const url = `http://127.0.0.1:${server.addr.port}/dav/reinagent.json`;
  const { home, project } = await seededHome();
  const fresh = await Deno.makeTempDir({ prefix: "ra-backup-dav-" });
  try {
    const up = await cli(["backup", "--webdav", url, "--webdav-user", "me", "--home", home], {
      REINAGENT_WEBDAV_PASSWORD: "pw",
    });
    assertEquals(up.code, 0, up.err);
    assertMatch(up.out, /uploaded the backup \(\d+ bytes\)/);
    assertEquals(JSON.parse(files.get("/dav/reinagent.json")!).manifest.kind, "reinagent-backup");

    const h = await opHarness({ home: fresh });
    const wrong = await h.fail("backup.webdav", {
      action: "restore",
      url,
      username: "me",
      password: "nope",
    });
    assertEquals(wrong.code, "upstream");
    assertMatch(wrong.message, /401/);
    const missing = await h.fail("backup.webdav", {
      action: "restore",
      url: url.replace("reinagent", "other"),
      username: "me",
      password: "pw",
    });
    assertMatch(missing.message, /404/);
    const r = await h.op("backup.webdav", {
      action: "restore",
      url,
      username: "me",
      password: "pw",
    });
    assertEquals([r.restored.settings, r.restored.providers, r.restored.projects], [3, 1, 1]);
    await h.close();
    assertEquals((await configOf(fresh)).projects, [[project, "My project"]]);
  } finally {
    await server.shutdown();
    for (const d of [home, fresh, project]) await Deno.remove(d, { recursive: true });
  }
});

Deno.test("backup: a restore that turns the sandbox off or adds an MCP server is announced; bad setting values are refused", async () => {
  const { home, project } = await seededHome();
  try {
    const h = await opHarness({ home });
    const doc = JSON.parse((await h.op("backup.export", {})).content);
    const bad = await h.fail("backup.restore", {
      text: JSON.stringify({ ...doc, settings: { "settings.sandboxLevel": "nonsense" } }),
    });
    assertMatch(bad.message, /sandboxLevel/);
    h.topics.add(NOTICES_TOPIC);
    h.events();
    const lowered = {
      ...doc,
      settings: { ...doc.settings, "settings.sandboxLevel": "off" },
      mcpServers: [...doc.mcpServers, {
        id: "new-one",
        enabled: true,
        transport: "stdio",
        command: "true",
        args: [],
      }],
    };
    await h.op("backup.restore", { text: JSON.stringify(lowered) });
    const notices = JSON.stringify(h.events());
    assertMatch(notices, /"what":"sandboxLevel"/);
    assertMatch(notices, /new-one/);
    await h.close();
  } finally {
    for (const d of [home, project]) await Deno.remove(d, { recursive: true });
  }
});
