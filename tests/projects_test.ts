/**
 * Projects: the store (migration 5, ProjectRepo), the ops through the real dispatcher
 * (add/list/rename/remove/reorder, every error text, the `projects` topic), the
 * server-side folder browser (`fs.listDirs`) and — through the real server process —
 * that a task created in a project runs with that folder as its workspace.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { opHarness } from "./helpers/op_context.ts";
import { startTestServer } from "./helpers/server.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { homedir } from "node:os";
import type { Project, ProjectsEvent, TaskEvent } from "../protocol/index.ts";

async function tree(): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-proj-" }));
  for (const d of ["alpha", "Beta", "gamma/inner", ".hidden", "item10", "item9"]) {
    await Deno.mkdir(`${root}/${d}`, { recursive: true });
  }
  await Deno.writeTextFile(`${root}/file.txt`, "not a folder");
  await Deno.symlink(`${root}/alpha`, `${root}/link-to-alpha`);
  await Deno.symlink(`${root}/file.txt`, `${root}/link-to-file`);
  return root;
}

Deno.test("projects: add realpaths, names from the folder, lists in order, pushes the list", async () => {
  const h = await opHarness();
  const root = await tree();
  try {
    const empty = await h.op("projects.list");
    assertEquals(empty.projects, []);
    assert(h.topics.has("projects"), "projects.list subscribes the caller");

    const a = (await h.op("projects.add", { path: `${root}/alpha/../alpha/` })).project as Project;
    assertEquals([a.path, a.name, a.taskCount], [`${root}/alpha`, "alpha", 0]);
    assertMatch(a.id, /^p[0-9a-z]+$/);
    const viaLink = await h.fail("projects.add", { path: `${root}/link-to-alpha` });
    assertEquals(viaLink.code, "conflict");
    assertEquals(viaLink.message, `${root}/alpha is already a project ("alpha")`);

    const b = (await h.op("projects.add", { path: `${root}/Beta`, name: "  My   beta " }))
      .project as Project;
    assertEquals(b.name, "My beta");
    const c = (await h.op("projects.add", { path: `${root}/gamma` })).project as Project;

    const evs = h.events().filter((e) => e.topic === "projects");
    assertEquals(evs.length, 3);
    const last = evs.at(-1)!.data as ProjectsEvent;
    assertEquals(last.kind, "list");
    assertEquals(last.projects.map((p) => p.name), ["alpha", "My beta", "gamma"]);

    const re = (await h.op("projects.reorder", { ids: [c.id, a.id, b.id] })).projects as Project[];
    assertEquals(re.map((p) => p.name), ["gamma", "alpha", "My beta"]);
    assertEquals((await h.op("projects.list")).projects.map((p: Project) => p.id), [
      c.id,
      a.id,
      b.id,
    ]);

    const renamed = (await h.op("projects.rename", { id: a.id, name: "Alpha app" }))
      .project as Project;
    assertEquals([renamed.name, renamed.path], ["Alpha app", `${root}/alpha`]);
    // The whole home folder is too wide for an agent: added only when confirmed.
    const wide = await h.fail("projects.add", { path: "~" });
    assertEquals(wide.code, "needs_confirmation");
    assertMatch(wide.message, /is your whole home folder: an agent working there/);
    const home = (await h.op("projects.add", { path: "~", confirmWide: true })).project as Project;
    assertEquals(home.path, await Deno.realPath(homedir()));
  } finally {
    await h.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("projects: every bad input gets a clear error and changes nothing", async () => {
  const h = await opHarness();
  const root = await tree();
  try {
    const p = (await h.op("projects.add", { path: `${root}/alpha` })).project as Project;
    h.events();
    const cases: [string, unknown, string, string | RegExp][] = [
      [
        "projects.add",
        { path: `${root}/nope` },
        "not_found",
        `the folder ${root}/nope does not exist`,
      ],
      [
        "projects.add",
        { path: `${root}/file.txt` },
        "invalid_args",
        `${root}/file.txt is not a folder`,
      ],
      [
        "projects.add",
        { path: `${root}/link-to-file` },
        "invalid_args",
        `${root}/link-to-file is not a folder`,
      ],
      [
        "projects.add",
        { path: "relative/dir" },
        "invalid_args",
        `"relative/dir" is not an absolute path (start with / or ~)`,
      ],
      ["projects.add", { path: "   " }, "invalid_args", "the path is empty"],
      [
        "projects.add",
        { path: `${root}/a\u0000b` },
        "invalid_args",
        "the path contains control characters",
      ],
      [
        "projects.add",
        { path: `${root}/alpha` },
        "conflict",
        `${root}/alpha is already a project ("alpha")`,
      ],
      [
        "projects.add",
        { path: `${root}/Beta`, name: "   " },
        "invalid_args",
        "the project name is empty",
      ],
      ["projects.add", { path: "" }, "invalid_args", "args.path must have at least 1 characters"],
      ["projects.add", {}, "invalid_args", /args\.path/],
      [
        "projects.rename",
        { id: "pmissing", name: "x" },
        "not_found",
        "project pmissing does not exist",
      ],
      ["projects.rename", { id: p.id, name: "  " }, "invalid_args", "the project name is empty"],
      [
        "projects.rename",
        { id: p.id, name: "x".repeat(81) },
        "invalid_args",
        "args.name must have at most 80 characters",
      ],
      ["projects.remove", { id: "pmissing" }, "not_found", "project pmissing does not exist"],
      ["projects.reorder", { ids: [p.id, p.id] }, "invalid_args", "ids lists a project twice"],
      ["projects.reorder", { ids: ["pother"] }, "not_found", "project pother does not exist"],
      [
        "projects.reorder",
        { ids: [] },
        "invalid_args",
        "ids must list every project exactly once (1 projects, 0 given)",
      ],
      [
        "fs.listDirs",
        { path: `${root}/nope` },
        "not_found",
        `the folder ${root}/nope does not exist`,
      ],
      [
        "fs.listDirs",
        { path: `${root}/file.txt` },
        "invalid_args",
        `${root}/file.txt is not a folder`,
      ],
      [
        "fs.listDirs",
        { path: "rel" },
        "invalid_args",
        `"rel" is not an absolute path (start with / or ~)`,
      ],
    ];
    for (const [op, args, code, msg] of cases) {
      const e = await h.fail(op, args);
      assertEquals(e.code, code, `${op} ${JSON.stringify(args)}`);
      if (typeof msg === "string") assertEquals(e.message, msg);
      else assertMatch(e.message, msg);
    }
    const after = (await h.op("projects.list")).projects as Project[];
    assertEquals(after.map((x) => [x.id, x.name, x.path]), [[p.id, "alpha", `${root}/alpha`]]);
    assertEquals(h.events().filter((e) => e.topic === "projects"), [], "no change was pushed");
  } finally {
    await h.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("projects: permission denied is reported, not hidden", async () => {
  const root = await tree();
  try {
    // A server without read access to a folder (a Deno permission denial here, so the
    // test also works as root; chmod 000 maps to the same error).
    const script = `${root}/probe.ts`;
    await Deno.writeTextFile(
      script,
      `import { PROJECT_HANDLERS } from ${
        JSON.stringify(new URL("../server/ops/projects_ops.ts", import.meta.url).href)
      };
const out = [];
for (const path of [${JSON.stringify(`${root}/gamma`)}, ${JSON.stringify(`${root}/alpha`)}]) {
  try {
    const r = await PROJECT_HANDLERS["fs.listDirs"]({}, { path });
    out.push({ ok: r.path });
  } catch (e) {
    out.push({ code: e.code, message: e.message });
  }
}
console.log(JSON.stringify(out));`,
    );
    const r = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "--no-check",
        "--allow-env",
        "--allow-sys",
        `--allow-read=${root}/alpha,${script}`,
        script,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(r.stderr);
    assertEquals(r.code, 0, err);
    assertEquals(JSON.parse(new TextDecoder().decode(r.stdout)), [
      { code: "invalid_args", message: `permission denied: cannot open ${root}/gamma` },
      { ok: `${root}/alpha` },
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("fs.listDirs: folders only, sorted naturally, hidden flagged last, parent and home", async () => {
  const h = await opHarness();
  const root = await tree();
  try {
    const r = await h.op("fs.listDirs", { path: `${root}/gamma/../` });
    assertEquals(r.path, root);
    assertEquals(r.parent, root.slice(0, root.lastIndexOf("/")) || "/");
    assertEquals(r.home, homedir());
    assertEquals(r.truncated, false);
    assertEquals(
      r.dirs.map((d: { name: string; hidden: boolean }) => [d.name, d.hidden]),
      [
        ["alpha", false],
        ["Beta", false],
        ["gamma", false],
        ["item9", false],
        ["item10", false],
        ["link-to-alpha", false],
        [".hidden", true],
      ],
    );
    assertEquals(r.dirs[0].path, `${root}/alpha`);
    const top = await h.op("fs.listDirs", { path: "/" });
    assertEquals([top.path, top.parent], ["/", null]);
    const home = await h.op("fs.listDirs", { path: "~" });
    assertEquals(home.path, await Deno.realPath(homedir()));
  } finally {
    await h.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("projects: removing a project keeps its tasks; a task in a project runs in that folder", async () => {
  const s = await startTestServer();
  const c = await TestClient.connect(s.base, s.token);
  const root = await tree();
  try {
    const folder = `${root}/alpha`;
    await Deno.writeTextFile(`${folder}/marker-alpha.md`, "# Alpha marker\n");
    const { project } = await c.request("projects.add", { path: folder });
    const { task } = await c.request("tasks.create", {
      projectPath: project.path,
      message: "hi, show me around and write a note file",
      options: { model: { providerId: "demo", modelId: "demo" } },
    });
    assertEquals(task.projectPath, folder);
    const done = () =>
      c.events.some((e) =>
        e.topic === `task:${task.id}` && (e.data as TaskEvent).kind === "run" &&
        (e.data as { run: unknown }).run === null
      );
    await c.until(done, "the demo run to finish", 20_000);
    // The demo model lists and reads its workspace and writes the asked-for note there.
    assertMatch(await Deno.readTextFile(`${folder}/demo-note.md`), /Demo model/);
    const defaultNote = await Deno.stat(`${s.home}/DefaultProject/demo-note.md`).catch(() => null);
    assertEquals(defaultNote, null, "nothing was written to DefaultProject");
    const snap = await c.request("task.subscribe", { id: task.id });
    const listed = snap.entries.find((e: { role: string; parts: { data?: { name?: string } }[] }) =>
      e.role === "tool" && e.parts[0].data?.name === "list_dir"
    );
    assertMatch(listed.parts[0].text, /marker-alpha\.md/);

    const listed2 = (await c.request("projects.list")).projects as Project[];
    assertEquals(listed2[0].taskCount, 1);
    const removed = await c.request("projects.remove", { id: project.id });
    assertEquals(removed, { id: project.id, tasksKept: 1 });
    const tasks = (await c.request("tasks.list")).tasks as { id: string; projectPath: string }[];
    assertEquals(tasks.find((t) => t.id === task.id)?.projectPath, folder, "the task is kept");
    assert(await Deno.stat(`${folder}/marker-alpha.md`), "files are untouched");
    assertEquals((await c.request("projects.list")).projects, []);
  } finally {
    await c.close();
    await s.stop();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("projects: a folder too wide for an agent asks first, and its tasks ask before changes", async () => {
  const h = await opHarness();
  try {
    for (const [path, why] of [["/", /root of the file system/], ["/etc", /system folder/]]) {
      const e = await h.fail("projects.add", { path: path as string });
      assertEquals(e.code, "needs_confirmation");
      assertMatch(e.message, why as RegExp);
    }
    // One that holds the data folder (here: the data folder's parent).
    const parent = h.home.replace(/\/[^/]+$/, "");
    assertMatch((await h.fail("projects.add", { path: parent })).message, /own data folder/);
    assertEquals((await h.op("projects.list")).projects, [], "nothing was added");
  } finally {
    await h.close();
  }
});
