/**
 * One instance per data dir and a window that can close without stopping runs, with
 * real processes: `main.ts` as the first server (desktop mode), its window a fake
 * (`tests/fixtures/fake_window.ts` through `REINAGENT_WINDOW_CMD`: it loads the URL and
 * stays until killed), a second `main.ts` on the same data dir, the mock LLM.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { ROOT, RUN_FLAGS } from "./helpers/server.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import type { PendingApproval, TaskSummary } from "../protocol/index.ts";
import { parseCli } from "../server/cli/args.ts";
import { tryLockHome } from "../server/instance/lock.ts";
import { parseWindowCommand } from "../server/window/backend.ts";
import { CHROMIUM_ARGS, findChromium } from "./e2e/browser.ts";

/** The gate of the slow model's answer: it ends once the test has seen the task running. */
const HOLD = { gate: "slow" };

const FAKE_WINDOW = `${ROOT}tests/fixtures/fake_window.ts`;

interface Proc {
  child: Deno.ChildProcess;
  /** Where its fake windows record themselves. */
  windowDir: string;
  /** Its exit status, once all its output was read. */
  ended(): Promise<Deno.CommandStatus>;
  output(): string;
  /** Waits until the output matches (or the process ended). */
  waitFor(re: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /** The fake windows opened so far: pid, URL, HTTP status of loading it. */
  windows(): Promise<{ pid: number; url: string; status: number }[]>;
  kill(): Promise<void>;
}

/**
 * `main.ts ARGS` with a fake window that records itself in `windowDir`; `env` replaces
 * the whole environment (with PATH and HOME kept) when given.
 */
async function startMain(
  args: string[],
  windowDir?: string,
  env?: Record<string, string>,
): Promise<Proc> {
  const dir = windowDir ?? await Deno.makeTempDir({ prefix: "ra-win-" });
  const cwd = await Deno.makeTempDir({ prefix: "ra-cwd-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: [...RUN_FLAGS, `${ROOT}main.ts`, ...args],
    cwd,
    clearEnv: env !== undefined,
    env: env
      ? {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: Deno.env.get("HOME") ?? "",
        NO_COLOR: "1",
        ...env,
      }
      : {
        NO_COLOR: "1",
        REINAGENT_WINDOW_CMD: JSON.stringify([Deno.execPath(), "run", "-A", FAKE_WINDOW, dir]),
      },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";

  let ended = false;
  const dec = new TextDecoder();
  const pump = async (s: ReadableStream<Uint8Array>) => {
    for await (const c of s) out += dec.decode(c, { stream: true });
  };
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
  child.status.then(() => (ended = true));
  const windows = async () => {
    const list: { pid: number; url: string; status: number }[] = [];
    for await (const e of Deno.readDir(dir)) {
      if (e.name.startsWith("window-")) {
        list.push(JSON.parse(await Deno.readTextFile(`${dir}/${e.name}`)));
      }
    }
    return list;
  };
  return {
    child,
    windowDir: dir,
    ended: async () => {
      const status = await child.status;
      await pumps;
      return status;
    },
    output: () => out,
    async waitFor(re, ms = 15_000) {
      const deadline = Date.now() + ms;
      let m: RegExpMatchArray | null;
      while (!(m = out.match(re))) {
        if (ended) await pumps;
        if ((m = out.match(re))) break;
        if (ended || Date.now() > deadline) {
          throw new Error(`no ${re} in the output${ended ? " (process ended)" : ""}:\n${out}`);
        }
        await new Promise((r) => setTimeout(r, 25));
      }
      return m;
    },
    windows,
    async kill() {
      // Only this run's windows (a shared dir holds the hand-overs' too: the first's).
      if (!windowDir) { for (const w of await windows()) killPid(w.pid); }
      try {
        child.kill("SIGKILL");
      } catch { /* ended */ }
      await child.status;
      await pumps;
      await Deno.remove(cwd, { recursive: true });
    },
  };
}

/** Whether the process runs (and is no zombie), from /proc. */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(Deno.readTextFileSync(`/proc/${pid}/status`));
  } catch {
    return false;
  }
}

function killPid(pid: number, signal: Deno.Signal = "SIGKILL") {
  try {
    Deno.kill(pid, signal);
  } catch { /* already gone */ }
}

async function until<T>(f: () => Promise<T | null | undefined | false>, what: string, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const v = await f();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function run(args: string[], windowDir: string, env?: Record<string, string>) {
  const started = performance.now();
  const p = await startMain(args, windowDir, env);
  const status = await p.child.status;
  const ms = performance.now() - started;
  await p.kill(); // drains the output
  return { code: status.code, out: p.output(), ms };
}

const urlOf = (m: RegExpMatchArray) => m.input!.match(/running at (http:\/\/\S+)/)![1];

Deno.test("instance: a second start hands over (window opened by the first, URL printed, exit 0 at once); the first's instance.json and live approval are untouched", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("cmd", {
    turns: [
      { text: "Writing.", toolCalls: [{ name: "exec_command", args: { command: "echo hi" } }] },
      { text: "Done." },
    ],
  });
  const home = await homeWithProvider(mock.base, ["cmd"]);
  const windowDir = await Deno.makeTempDir();
  const first = await startMain(["--home", home, "--port", "0"], windowDir);
  let client: TestClient | null = null;
  try {
    const url = urlOf(await first.waitFor(/running at \S+\n(.|\n)*window: /));
    const base = new URL(url).origin, token = new URL(url).searchParams.get("token")!;
    const [win] = await until(
      async () => (await first.windows()).length === 1 && first.windows(),
      "the first window",
    );
    assertEquals(win.url, url, "the window opens the server's URL with the token");
    assertEquals(win.status, 302, "and the token was accepted");

    client = await TestClient.connect(base, token);
    const { task } = await client.request("tasks.create", {
      message: "run echo",
      options: { model: { providerId: "mock", modelId: "cmd" }, approval: "ask" },
    });
    const pending = await until(
      async () =>
        ((await client!.request("approvals.list")).approvals as PendingApproval[])
          .find((a) => a.taskId === task.id && a.live),
      "a live approval",
    );
    const instanceBefore = await Deno.readTextFile(`${home}/instance.json`);

    const second = await run(["--home", home], windowDir);
    assertEquals(second.code, 0, second.out);
    assertMatch(second.out, /already running for this data dir \(pid \d+\)/);
    assert(second.out.includes(url), `the first's URL is printed:\n${second.out}`);
    assertMatch(second.out, /window: opened by the running instance/);
    assert(second.ms < 3000, `hand-over took ${Math.round(second.ms)} ms`);
    console.log(
      `  hand-over: ${Math.round(second.ms)} ms from spawn to exit (deno start-up included)`,
    );
    await until(
      async () => (await first.windows()).length === 2,
      "a second window, opened by the first",
    );

    // `serve` on the same data dir: prints the URL, opens nothing, starts nothing.
    const serve = await run(["serve", "--home", home, "--port", "9"], windowDir);
    assertEquals(serve.code, 0, serve.out);
    assert(serve.out.includes(url), serve.out);
    assertMatch(serve.out, /--port 9 not applied/);
    assertEquals((await first.windows()).length, 2);

    assertEquals(await Deno.readTextFile(`${home}/instance.json`), instanceBefore);
    const after = (await client.request("approvals.list")).approvals as PendingApproval[];
    assertEquals(after.find((a) => a.id === pending.id)?.live, true, "the approval is still live");
    await client.request("task.subscribe", { id: task.id });
    await client.request("approval.decide", { id: pending.id, decision: "allow" });
    await until(async () =>
      ((await client!.request("tasks.list")).tasks as TaskSummary[])
        .find((t) => t.id === task.id)?.lastRun === "done", "the run to finish");
  } finally {
    await client?.close();
    for (const w of await first.windows()) killPid(w.pid);
    await first.kill();
    await mock.close();
  }
});

Deno.test("instance: the lock of a killed server is taken over (its window, still open, holds nothing); a stale instance.json is replaced", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-home-" });
  const windowDir = await Deno.makeTempDir();
  const first = await startMain(["--home", home], windowDir);
  await first.waitFor(/window: /);
  const [orphan] = await until(
    async () => (await first.windows()).length === 1 && first.windows(),
    "the window",
  );
  const firstPid = first.child.pid;
  await first.kill(); // SIGKILL: the lock file and instance.json stay behind
  // The window outlives its server: it must not have inherited the lock.
  assert(await Deno.stat(`/proc/${orphan.pid}`).then(() => true, () => Deno.build.os !== "linux"));
  assertMatch(await Deno.readTextFile(`${home}/instance.lock`), new RegExp(`"pid":${firstPid}`));
  assertMatch(await Deno.readTextFile(`${home}/instance.json`), new RegExp(`"pid":${firstPid}`));

  const second = await startMain(["serve", "--home", home]);
  try {
    await second.waitFor(/running at/);
    assertMatch(second.output(), new RegExp(`took over the data dir from pid ${firstPid}`));
    const info = JSON.parse(await Deno.readTextFile(`${home}/instance.json`));
    assertEquals(info.pid, second.child.pid);
    // A third start finds the second: it hands over rather than taking anything over.
    const third = await run(["serve", "--home", home], await Deno.makeTempDir());
    assertEquals(third.code, 0, third.out);
    assertMatch(
      third.out,
      new RegExp(`already running for this data dir \\(pid ${second.child.pid}\\)`),
    );
  } finally {
    killPid(orphan.pid);
    await second.kill();
  }
});

Deno.test("instance: killing the window leaves the server and a running task alive; the server stops when the task ends", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("slow", {
    // Held part-way until the test lets it end: surely still running when the window dies.
    turns: [{ text: "one two three four five six seven eight nine ten", chunk: 5, hold: HOLD }],
  });
  const home = await homeWithProvider(mock.base, ["slow"]);
  const first = await startMain(["--home", home]);
  let client: TestClient | null = null;
  try {
    const url = urlOf(await first.waitFor(/running at \S+\n(.|\n)*window: /));
    const [win] = await until(
      async () => (await first.windows()).length === 1 && first.windows(),
      "the window",
    );
    client = await TestClient.connect(new URL(url).origin, new URL(url).searchParams.get("token")!);
    const { task } = await client.request("tasks.create", {
      message: "go slowly",
      options: { model: { providerId: "mock", modelId: "slow" }, approval: "full" },
    });
    await until(async () =>
      ((await client!.request("tasks.list")).tasks as TaskSummary[])
        .find((t) => t.id === task.id)?.status === "running", "the task to run");

    killPid(win.pid); // the window crashes
    await first.waitFor(/window ended by SIGKILL; 1 task is still running: the server keeps going/);
    const health = await fetch(`${new URL(url).origin}/api/health`, {
      headers: { authorization: `Bearer ${new URL(url).searchParams.get("token")}` },
    });
    assertEquals(health.status, 200, "the server still answers");
    await health.body?.cancel();
    const t = ((await client.request("tasks.list")).tasks as TaskSummary[]).find((x) =>
      x.id === task.id
    );
    assertEquals(t?.status, "running", "the task goes on");
    mock.release(HOLD.gate);

    const status = await Promise.race([
      first.ended(),
      new Promise<never>((_, no) => setTimeout(() => no(new Error("server did not stop")), 20_000)),
    ]);
    assertEquals(status.code, 0);
    assertMatch(first.output(), /the last running task ended: stopping/);
    // It finished its run (not stopped by the closing window): the database says done.
    const again = await startMain(["serve", "--home", home]);
    try {
      const u2 = urlOf(await again.waitFor(/running at/));
      const c2 = await TestClient.connect(
        new URL(u2).origin,
        new URL(u2).searchParams.get("token")!,
      );
      const done = ((await c2.request("tasks.list")).tasks as TaskSummary[]).find((x) =>
        x.id === task.id
      );
      assertEquals(done?.lastRun, "done");
      await c2.close();
    } finally {
      await again.kill();
    }
  } finally {
    await client?.close().catch(() => {});
    await first.kill();
    await mock.close();
  }
});

Deno.test("instance: closing the window with nothing running stops the server; --keep-running keeps it", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-home-" });
  const plain = await startMain(["--home", home]);
  try {
    await plain.waitFor(/window: /);
    const [w] = await until(
      async () => (await plain.windows()).length === 1 && plain.windows(),
      "window",
    );
    killPid(w.pid, "SIGTERM");
    assertEquals((await plain.ended()).code, 0);
    assertMatch(plain.output(), /window ended by SIGTERM; no task is running: stopping/);
    assertEquals(await Deno.stat(`${home}/instance.json`).catch(() => null), null, "cleaned up");
  } finally {
    await plain.kill();
  }
  const kept = await startMain(["--home", home, "--keep-running"]);
  try {
    const url = urlOf(await kept.waitFor(/running at \S+\n(.|\n)*window: /));
    const [w] = await until(
      async () => (await kept.windows()).length === 1 && kept.windows(),
      "window",
    );
    killPid(w.pid, "SIGTERM");
    await kept.waitFor(/window ended by SIGTERM; the server keeps running at/);
    await new Promise((r) => setTimeout(r, 500));
    const res = await fetch(`${new URL(url).origin}/api/health`, {
      headers: { authorization: `Bearer ${new URL(url).searchParams.get("token")}` },
    });
    assertEquals(res.status, 200);
    await res.body?.cancel();
    // Ctrl+C (SIGTERM) stops the server, and its windows close with it.
    assertEquals((await run(["--home", home], kept.windowDir)).code, 0);
    const reopened = await until(
      async () => (await kept.windows()).find((x) => x.pid !== w.pid),
      "the window opened on hand-over",
    );
    kept.child.kill("SIGTERM");
    assertEquals((await kept.ended()).code, 0);
    await until(
      () => Promise.resolve(!alive(reopened.pid)),
      "the window to close with the server",
    );
  } finally {
    await kept.kill();
  }
});

Deno.test("REINAGENT_WINDOW_CMD: a JSON array or words; anything else is a clear error", () => {
  assertEquals(parseWindowCommand('["/opt/my browser", "--app"]'), ["/opt/my browser", "--app"]);
  assertEquals(parseWindowCommand("  firefox  --new-window "), ["firefox", "--new-window"]);
  const bad = "REINAGENT_WINDOW_CMD must be a JSON array of non-empty strings";
  assertEquals(parseWindowCommand('["a", 3]'), { error: bad });
  assertEquals(parseWindowCommand("[nope"), { error: bad });
  assertEquals(parseWindowCommand('[""]'), { error: bad });
  assertEquals(parseWindowCommand("   "), { error: "REINAGENT_WINDOW_CMD is empty" });
});

Deno.test("cli parser: --keep-running is for the desktop mode only", () => {
  assertEquals(parseCli(["--keep-running"]), {
    command: { kind: "window", noOpen: false, keepRunning: true },
  });
  assertEquals(parseCli(["serve", "--keep-running"]), {
    error: "--keep-running is only for `reinagent` (serve always keeps running)",
  });
});

Deno.test("instance: a headless CLI holding the data dir is not run over by a server or another run", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-home-" });
  const lock = await tryLockHome(home, "run"); // as an in-process `reinagent run` holds it
  assert(lock);
  try {
    const dir = await Deno.makeTempDir();
    for (
      const args of [["--home", home], ["run", "hi", "--home", home], ["tasks", "--home", home]]
    ) {
      const r = await run(args, dir);
      assertEquals(r.code, 1, r.out);
      assertMatch(r.out, new RegExp(`in use by \`reinagent run\` \\(pid ${Deno.pid}\\)`));
    }
    assertEquals(await Deno.stat(`${home}/reinagent.db`).catch(() => null), null, "never opened");
    assertEquals((await Deno.readDir(dir)[Symbol.asyncIterator]().next()).done, true, "no window");
  } finally {
    lock.release();
  }
  // Released: the next start owns it (and finds nothing stale).
  const s = await startMain(["serve", "--home", home]);
  try {
    await s.waitFor(/running at/);
    assert(!s.output().includes("took over"), s.output());
  } finally {
    await s.kill();
  }
});

Deno.test("doctor: says which window backend is used and why the others are not, and whether an instance runs", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-home-" });
  const dir = await Deno.makeTempDir();
  const noDisplay = await run(["doctor", "--home", home], dir, {});
  assertMatch(
    noDisplay.out,
    /✓ window: none — no display \(DISPLAY and WAYLAND_DISPLAY are unset\)/,
  );
  assertMatch(noDisplay.out, /✓ instance: none running/);
  const chromium = findChromium();
  if (chromium) {
    const withChromium = await run(["doctor", "--home", home], dir, { DISPLAY: ":99" });
    assertMatch(
      withChromium.out,
      new RegExp(
        `✓ window: app window \\(\\S*chromium\\S* --app, own profile in ${home}/window-profile`,
      ),
    );
    assertMatch(withChromium.out, /not used: .*default browser: an app window comes first/);
  }
  const noBrowser = await run(["doctor", "--home", home], dir, {
    DISPLAY: ":99",
    PATH: "/nonexistent",
  });
  assertMatch(noBrowser.out, /window: none — no browser found/);
  assertMatch(
    noBrowser.out,
    /not used: .*app window: no Chromium-family browser found \(looked for chromium,/,
  );

  const s = await startMain(["serve", "--home", home]);
  try {
    await s.waitFor(/running at/);
    const r = await run(["doctor", "--home", home], dir, { REINAGENT_WINDOW_CMD: "my-window --x" });
    assertMatch(r.out, /✓ window: REINAGENT_WINDOW_CMD \(my-window --x\); not used: app window/);
    assertMatch(r.out, new RegExp(`✓ instance: running \\(pid ${s.child.pid}, serve\\)`));
  } finally {
    await s.kill();
  }
});

Deno.test("instance: a real (headless) Chromium as the window: it connects; killing it leaves the server and its running task alive", async () => {
  const chromium = findChromium();
  if (!chromium) {
    if (Deno.env.get("REINAGENT_REQUIRE_BROWSER") === "1") throw new Error("no Chromium found");
    console.warn("SKIPPED: no Chromium binary found");
    return;
  }
  const mock = startMockLlm({ quiet: true });
  mock.register("slow", {
    turns: [{ text: "one two three four five six seven eight", chunk: 5, hold: HOLD }],
  });
  const home = await homeWithProvider(mock.base, ["slow"]);
  const profile = await Deno.makeTempDir({ prefix: "ra-chromium-" });
  const first = await startMain(["--home", home], undefined, {
    REINAGENT_WINDOW_CMD: JSON.stringify([
      chromium,
      ...CHROMIUM_ARGS,
      `--user-data-dir=${profile}`,
    ]),
  });
  let client: TestClient | null = null;
  try {
    const url = urlOf(await first.waitFor(/running at \S+\n(.|\n)*window: /));
    client = await TestClient.connect(new URL(url).origin, new URL(url).searchParams.get("token")!);
    await until(
      async () => (await client!.request("server.info")).clients >= 2,
      "the Chromium window's page to connect",
      20_000,
    );
    const { task } = await client.request("tasks.create", {
      message: "go slowly",
      options: { model: { providerId: "mock", modelId: "slow" }, approval: "full" },
    });
    await until(async () =>
      ((await client!.request("tasks.list")).tasks as TaskSummary[])
        .find((t) => t.id === task.id)?.status === "running", "the task to run");
    const main = await until(() => browserPid(profile, first.child.pid), "the Chromium process");
    killPid(main);
    await first.waitFor(/window ended by SIGKILL; 1 task is still running/);
    await until(async () => (await client!.request("server.info")).clients === 1, "it to go");
    const t = ((await client.request("tasks.list")).tasks as TaskSummary[])
      .find((x) => x.id === task.id);
    assertEquals(t?.status, "running");
    mock.release(HOLD.gate);
    assertEquals((await first.ended()).code, 0, "stopped by itself once the task ended");
    assertMatch(first.output(), /the last running task ended: stopping/);
  } finally {
    await client?.close().catch(() => {});
    const left = await browserPid(profile, first.child.pid);
    if (left) killPid(left);
    await first.kill();
    await mock.close();
  }
});

/** The pid of the Chromium the server started on `profile`: its child (read from /proc). */
async function browserPid(profile: string, parent: number): Promise<number | null> {
  for await (const e of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    const cmd = await Deno.readTextFile(`/proc/${e.name}/cmdline`).catch(() => "");
    if (!cmd.split("\0").includes(`--user-data-dir=${profile}`)) continue;
    const stat = await Deno.readTextFile(`/proc/${e.name}/stat`).catch(() => "");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid === parent) return Number(e.name);
  }
  return null;
}

Deno.test("instance: a window opened by a second start while the server waits for a task keeps it running past the task's end", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("slow", {
    turns: [{ text: "one two three four five six", chunk: 5, hold: HOLD }],
  });
  const home = await homeWithProvider(mock.base, ["slow"]);
  const windowDir = await Deno.makeTempDir();
  const first = await startMain(["--home", home], windowDir);
  let client: TestClient | null = null;
  try {
    const url = urlOf(await first.waitFor(/running at \S+\n(.|\n)*window: /));
    const [w1] = await until(
      async () => (await first.windows()).length === 1 && first.windows(),
      "the window",
    );
    client = await TestClient.connect(new URL(url).origin, new URL(url).searchParams.get("token")!);
    const { task } = await client.request("tasks.create", {
      message: "go slowly",
      options: { model: { providerId: "mock", modelId: "slow" }, approval: "full" },
    });
    await until(async () =>
      ((await client!.request("tasks.list")).tasks as TaskSummary[])
        .find((t) => t.id === task.id)?.status === "running", "the task to run");
    killPid(w1.pid, "SIGTERM");
    await first.waitFor(/1 task is still running/);
    assertEquals((await run(["--home", home], windowDir)).code, 0);
    const w2 = await until(
      async () => (await first.windows()).find((w) => w.pid !== w1.pid),
      "the second window",
    );
    mock.release(HOLD.gate);
    await until(
      async () =>
        ((await client!.request("tasks.list")).tasks as TaskSummary[])
          .find((t) => t.id === task.id)?.lastRun === "done",
      "the task to end",
      15_000,
    );
    await new Promise((r) => setTimeout(r, 800)); // more than the wait's poll interval
    assert(!first.output().includes("stopping"), first.output());
    killPid(w2.pid, "SIGTERM");
    assertEquals((await first.ended()).code, 0);
    assertMatch(first.output(), /no task is running: stopping/);
  } finally {
    await client?.close().catch(() => {});
    for (const w of await first.windows()) killPid(w.pid);
    await first.kill();
    await mock.close();
  }
});
