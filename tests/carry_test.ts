/**
 * Carrying a task to another machine: a real run (mock LLM) with a tool call, usage and an
 * attachment is exported by the CLI (`main.ts export`, its own process) and imported into
 * a fresh data dir (`main.ts import`); the copy has the same entries, usage and
 * attachment bytes, and a second import changes nothing. Hostile export files: a newer
 * version, malformed tasks, path tricks in attachment names, oversize data.
 */
import { until } from "./helpers/until.ts";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { env } from "./helpers/agent_env.ts";
import { ROOT, RUN_FLAGS, startTestServer } from "./helpers/server.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { OpContext } from "../server/ops/context.ts";
import { saveUpload } from "../server/composer/uploads_store.ts";
import { Store } from "../store/store.ts";
import { PNG_1PX } from "./helpers/png.ts";
import { importExportText } from "../server/carry/carry_service.ts";
import { EXPORT_KIND } from "../protocol/carry.ts";

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = await new Deno.Command(Deno.execPath(), {
    args: [...RUN_FLAGS, `${ROOT}main.ts`, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const dec = new TextDecoder();
  return { code: r.code, out: dec.decode(r.stdout), err: dec.decode(r.stderr) };
}

/** The rows of a data dir that an import must reproduce (and a second import keep). */
function snapshot(home: string) {
  const store = new Store(`${home}/reinagent.db`);
  try {
    const r = store.repos!;
    return r.tasks.list().map((t) => ({
      task: { ...t, unread: false, status: "idle" },
      entries: r.entries.latest(t.id, 10_000),
    }));
  } finally {
    store.close();
  }
}

Deno.test("carry: export → import on a fresh data dir reproduces the task; a second import changes nothing", async () => {
  const e = await env();
  const homeA = e.deps.home;
  const homeB = await Deno.makeTempDir({ prefix: "ra-carry-b-" });
  const out = await Deno.makeTempDir({ prefix: "ra-carry-out-" });
  try {
    const model = e.scenario({
      turns: [
        { text: "Looking.", toolCalls: [{ name: "list_dir", args: { path: "." } }] },
        { text: "There is one file. CARRY-DONE" },
      ],
    });
    const att = await saveUpload(homeA, {
      name: "shot.png",
      mime: "image/png",
      body: ReadableStream.from([PNG_1PX]),
      length: PNG_1PX.length,
    });
    const ctx: OpContext = { ...e.deps, client: { id: "t", topics: new Set(), deliver: () => {} } };
    const created = await runOp(ctx, "tasks.create", {
      title: "Carry me",
      message: "what is in here?",
      attachments: [att.id],
      options: { model, approval: "full" },
    });
    assert(created.ok, JSON.stringify(created));
    const taskId = (created.result as { task: { id: string } }).task.id;
    await until(() => !e.deps.runs!.isRunning(taskId), "the run to end", 30_000).catch((err) => {
      console.log(
        JSON.stringify(e.deps.store.repos!.entries.latest(taskId, 100)),
        e.deps.approvals!.list(),
      );
      throw err;
    });
    await e.close();

    const before = snapshot(homeA);
    assertEquals(before.length, 1);
    const roles = before[0].entries.map((x) => x.role);
    assertEquals(roles, ["user", "assistant", "tool", "assistant"]);
    assert(before[0].entries[1].meta.usage, "the assistant entry has usage");

    const file = `${out}/all.json`;
    const ex = await cli(["export", "--all", "--format", "json", "--out", file, "--home", homeA]);
    assertEquals(ex.code, 0, ex.err);
    assertMatch(ex.err, /wrote 1 task/);
    const md = await cli(["export", taskId, "--home", homeA]);
    assertEquals(md.code, 0, md.err);
    assertMatch(md.out, /^## Carry me/);
    assertMatch(md.out, /\*\*Tool call\*\* `list_dir`/);
    assertMatch(md.out, /CARRY-DONE/);

    const im = await cli(["import", file, "--home", homeB]);
    assertEquals(im.code, 0, im.err);
    assertMatch(
      im.out,
      /imported 1 new task\(s\), updated 0, 0 already here; 4 entries, 1 attachments/,
    );
    const after = snapshot(homeB);
    // The approval mode chosen there ("full") is a grant of that machine: not carried; the
    // task gets this machine's default of now, bound (a later default change leaves it).
    assertEquals(before[0].task.settings.approval, "full");
    before[0].task.settings = { ...before[0].task.settings, approval: "edit" };
    assertEquals(after, before, "tasks and entries (parts, usage, times) are the same");
    assertEquals(await Deno.readFile(`${homeB}/uploads/${att.id}/data`), PNG_1PX);
    const meta = JSON.parse(await Deno.readTextFile(`${homeB}/uploads/${att.id}/meta.json`));
    assertEquals([meta.name, meta.mime, meta.size], ["shot.png", "image/png", PNG_1PX.length]);

    const again = await cli(["import", file, "--home", homeB]);
    assertEquals(again.code, 0, again.err);
    assertMatch(
      again.out,
      /imported 0 new task\(s\), updated 0, 1 already here; 0 entries, 0 attachments/,
    );
    assertEquals(snapshot(homeB), after, "the second import changed nothing");
  } finally {
    for (const d of [homeA, homeB, out]) await Deno.remove(d, { recursive: true }).catch(() => {});
  }
});

const entry = (id: string, pos: number, text: string) => ({
  id,
  taskId: "x",
  pos,
  role: "user",
  status: "done",
  createdAt: 1_700_000_000_000 + pos,
  updatedAt: 1_700_000_000_000 + pos,
  parts: [{ type: "text", text }],
  meta: {},
});

const task = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: `Task ${id}`,
  projectPath: null,
  pinned: false,
  lastRun: "done",
  settings: {},
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_500,
  entries: [entry(`${id}m1`, 1, "hello")],
  attachments: [],
  ...extra,
});

const bundle = (tasks: unknown[], version = 1) =>
  JSON.stringify({ kind: EXPORT_KIND, version, exportedAt: 0, app: {}, tasks });

Deno.test("carry: hostile export files are refused or reported, and the good rest imports", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-carry-bad-" });
  const store = new Store(`${home}/reinagent.db`);
  try {
    const repos = store.repos!;
    // Not an export, a newer version, not JSON: refused whole, nothing written.
    for (
      const [text, re] of [
        ["{}", /not a ReinAgent export/],
        [bundle([task("tnew")], 99), /version 99, made by a newer ReinAgent/],
        ["{not json", /not JSON/],
        // The parser's quote of the text is not passed on (a path may name any file).
        ["root:x:0:0:secret-line", /^not JSON$/],
      ] as const
    ) {
      let msg = "";
      await importExportText(repos, home, text).catch((err) => msg = err.message);
      assertMatch(msg, re);
    }
    assertEquals(repos.tasks.list().length, 0);

    const b64 = btoa("secret");
    const r = await importExportText(
      repos,
      home,
      bundle([
        task("tgood"),
        { id: "../evil", entries: [] },
        task("tbadentry", {
          entries: [entry("tbe1", 1, "kept"), { id: "bad id!", role: "user" }, {
            ...entry("tbe3", 2, "x"),
            role: "root",
          }],
        }),
        task("tatt", {
          attachments: [
            { id: "u" + "a".repeat(32), name: "../../etc/passwd", mime: "text/plain", data: b64 },
            { id: "../../x", name: "ok.txt", mime: "text/plain", data: b64 },
            { id: "u" + "b".repeat(32), name: "ok.txt", mime: "text/plain", data: "!!notbase64" },
            {
              id: "u" + "c".repeat(32),
              name: "big.bin",
              mime: "application/octet-stream",
              data: "A".repeat(28 * 1024 * 1024),
            },
            { id: "u" + "d".repeat(32), name: "fine.txt", mime: "text/plain", data: b64 },
            // Looks like base64 but is cut (5 characters): Buffer read "ABC" of it.
            { id: "u" + "f".repeat(32), name: "torn.txt", mime: "text/plain", data: "QUJDR" },
          ],
        }),
      ]),
    );
    assertEquals(r.tasksCreated, 3, JSON.stringify(r));
    const problems = r.problems.join("\n");
    assertMatch(problems, /task 1: bad id/);
    assertMatch(problems, /task 2 entry 1: bad id/);
    assertMatch(problems, /task 2 entry 2: unknown role/);
    assertMatch(problems, /attachment 0: the file name must not contain slashes/);
    assertMatch(problems, /attachment 1: bad id/);
    assertMatch(problems, /attachment 2: data is not base64/);
    assertMatch(problems, /attachment 3: larger than/);
    assertMatch(problems, /attachment torn\.txt: its data is not base64/);
    assertEquals(repos.entries.latest("tbadentry", 10).map((x) => x.parts[0].text), ["kept"]);
    assertEquals(r.attachmentsAdded, 1);
    const uploads = [...Deno.readDirSync(`${home}/uploads`)].map((d) => d.name);
    assertEquals(uploads, ["u" + "d".repeat(32)], "only the good attachment, inside uploads/");
    assert(!await Deno.stat(`${home}/etc`).then(() => true, () => false));

    // An attachment part may not point a run at any file here.
    const part = (path: string) => ({
      type: "file",
      data: { id: "u" + "e".repeat(32), name: "a.txt", mime: "text/plain", size: 3, path },
    });
    await importExportText(
      repos,
      home,
      bundle([task("tpaths", {
        entries: [{
          ...entry("tpathsm1", 1, "see"),
          parts: [
            part("/etc/hostname"),
            part(`/w/.reinagent/attachments/u${"e".repeat(32)}/a.txt`),
            part(`/w/.reinagent/attachments/u${"e".repeat(32)}/../../../etc/a.txt`),
          ],
        }],
      })]),
    );
    assertEquals(
      repos.entries.get("tpathsm1")!.parts.map((p) => p.data?.path),
      [undefined, `/w/.reinagent/attachments/u${"e".repeat(32)}/a.txt`, undefined],
    );

    // Grants made elsewhere are not carried: approval mode, tool policies, no sandbox.
    await importExportText(
      repos,
      home,
      bundle([task("tgrants", {
        settings: {
          model: { providerId: "p", modelId: "m" },
          effort: "high",
          approval: "full",
          toolPolicies: { exec_command: "allow" },
          unsandboxedOk: true,
          goal: { text: "ship it", paused: false, setAt: 5 },
        },
      })]),
    );
    assertEquals(repos.tasks.get("tgrants")!.settings, {
      model: { providerId: "p", modelId: "m" },
      effort: "high",
      approval: "edit",
      sandbox: "workspace-write",
      goal: { text: "ship it", paused: true, setAt: 5 },
    });

    // An entry id used by another task here is not moved: reported, left out.
    const clash = await importExportText(
      repos,
      home,
      bundle([task("tother", { entries: [entry("tgoodm1", 1, "steal")] })]),
    );
    assertMatch(clash.problems.join(), /belongs to another task here/);
    assertEquals(repos.entries.get("tgoodm1")!.taskId, "tgood");
  } finally {
    store.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("carry: an import into a task that grew keeps both timelines (new entries appended)", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-carry-grow-" });
  const store = new Store(`${home}/reinagent.db`);
  try {
    const repos = store.repos!;
    await importExportText(repos, home, bundle([task("tg")]));
    // Here the task got an entry at pos 2; the other machine's copy also has a pos 2.
    repos.entries.append({
      id: "mlocal",
      taskId: "tg",
      role: "user",
      status: "done",
      parts: [{ type: "text", text: "local" }],
    });
    const r = await importExportText(
      repos,
      home,
      bundle([task("tg", { entries: [entry("tgm1", 1, "hello"), entry("tgm2", 2, "remote")] })]),
    );
    assertEquals([r.tasksUpdated, r.entriesAdded], [1, 1]);
    assertEquals(repos.entries.latest("tg", 10).map((x) => [x.pos, x.parts[0].text]), [
      [1, "hello"],
      [2, "local"],
      [3, "remote"],
    ]);
  } finally {
    store.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("carry: with a server running, the CLI exports over GET /api/export (not bounded by a WebSocket message)", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-carry-live-" });
  const out = await Deno.makeTempDir({ prefix: "ra-carry-out-" });
  const store = new Store(`${home}/reinagent.db`);
  store.repos!.tasks.create({ id: "tlive1", title: "Live one", projectPath: null });
  store.repos!.entries.append({
    id: "mlive1",
    taskId: "tlive1",
    role: "user",
    status: "done",
    parts: [{ type: "text", text: "x".repeat(70 * 1024 * 1024) }],
  });
  store.close();
  const s = await startTestServer({ home });
  try {
    const r = await cli([
      "export",
      "tlive1",
      "--format",
      "json",
      "--out",
      `${out}/live.json`,
      "--home",
      home,
    ]);
    assertEquals(r.code, 0, r.err);
    const b = JSON.parse(await Deno.readTextFile(`${out}/live.json`));
    assertEquals(b.tasks[0].entries[0].parts[0].text.length, 70 * 1024 * 1024);

    const get = (q: string, auth = true) =>
      fetch(`${s.base}/api/export?${q}`, {
        headers: auth ? { authorization: `Bearer ${s.token}` } : {},
      });
    const md = await get("task=tlive1&format=md");
    assertEquals(md.status, 200);
    assertEquals(md.headers.get("content-disposition"), 'attachment; filename="live-one.md"');
    assertMatch((await md.text()).slice(0, 100), /^## Live one/);
    for (
      const [q, status] of [["task=nope", 400], ["task=../x", 400], [
        "all=1&format=exe",
        400,
      ]] as const
    ) {
      const res = await get(q);
      assertEquals(res.status, status, q);
      await res.body?.cancel();
    }
    const anon = await get("all=1", false);
    assertEquals(anon.status, 401);
    await anon.body?.cancel();
  } finally {
    await s.stop();
    await Deno.remove(home, { recursive: true });
    await Deno.remove(out, { recursive: true });
  }
});
