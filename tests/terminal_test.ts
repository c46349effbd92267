/**
 * The terminal through the real server (child process, real PTY, real WebSocket): the
 * shell has a tty, follows resizes, drives an interactive program, reaches a second
 * client (scrollback replay + live frames), stays bounded under `yes`, and leaves no
 * process behind when a terminal closes or the server stops.
 */
import { until } from "./helpers/until.ts";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { RUN_FLAGS, startTestServer, type TestServer } from "./helpers/server.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { TERMINAL_LIMITS, type TerminalInfo, type TerminalList } from "../protocol/index.ts";
import { detectShell } from "../server/terminal/shell.ts";

const linux = Deno.build.os === "linux";

/**
 * A client that collects the output frames of the terminals it attached and, like the
 * UI, acknowledges them (unless `acking` is off).
 */
class TermClient {
  out = new Map<string, string>();
  acking = true;
  /** Characters received and not acknowledged (while `acking` is off). */
  held = 0;
  resets = 0;
  private constructor(readonly c: TestClient) {
    c.ws.addEventListener("message", (ev) => {
      const msg = JSON.parse(String((ev as MessageEvent).data));
      if (msg.t !== "term") return;
      if (msg.reset) this.resets++;
      this.out.set(msg.id, (msg.reset ? "" : this.out.get(msg.id) ?? "") + msg.data);
      if (this.acking) this.ack(msg.id, msg.data.length);
      else this.held += msg.data.length;
    });
  }
  ack(id: string, chars: number) {
    this.c.request("terminal.ack", { id, chars }).catch(() => {});
  }
  static async connect(s: TestServer): Promise<TermClient> {
    return new TermClient(await TestClient.connect(s.base, s.token));
  }
  async attach(id: string): Promise<string> {
    const r = await this.c.request("terminal.attach", { id });
    this.out.set(id, r.screen);
    if (this.acking) this.ack(id, r.screen.length);
    else this.held += r.screen.length;
    return r.screen;
  }
  type(id: string, data: string) {
    return this.c.request("terminal.input", { id, data });
  }
  async waitFor(id: string, re: RegExp, what: string, ms = 8000): Promise<RegExpMatchArray> {
    await this.c.until(() => re.test(this.out.get(id) ?? ""), what, ms);
    return (this.out.get(id) ?? "").match(re)!;
  }
}

async function withServer(fn: (s: TestServer, a: TermClient) => Promise<void>) {
  const s = await startTestServer({ env: { SHELL: "/bin/bash" } });
  try {
    const a = await TermClient.connect(s);
    try {
      await fn(s, a);
    } finally {
      await a.c.close();
    }
  } finally {
    await s.stop();
  }
}

async function openShell(a: TermClient, cols = 80, rows = 24): Promise<TerminalInfo> {
  const list: TerminalList = await a.c.request("terminal.list");
  assert(list.available, `terminal available: ${list.reason}`);
  const { terminal } = await a.c.request("terminal.open", { cols, rows });
  await a.attach(terminal.id);
  return terminal;
}

/** Running (a zombie waiting to be reaped is dead). */
const alive = (pid: number) => {
  const out = new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)] }).outputSync();
  const stat = new TextDecoder().decode(out.stdout).trim();
  return stat !== "" && !stat.startsWith("Z");
};

function rssMb(pid: number): number {
  const m = Deno.readTextFileSync(`/proc/${pid}/status`).match(/VmRSS:\s+(\d+) kB/);
  return Number(m![1]) / 1024;
}

Deno.test({
  name: "terminal: tty prints /dev/pts/N and stty size follows a resize",
  ignore: !linux,
  async fn() {
    await withServer(async (_s, a) => {
      const t = await openShell(a, 80, 24);
      assertMatch(t.tty, /^\/dev\/pts\/\d+$/);
      await a.type(t.id, "tty; stty size\n");
      const m = await a.waitFor(t.id, /(\/dev\/pts\/\d+)\r?\n(\d+) (\d+)/, "tty + size");
      assertEquals(m[1], t.tty);
      assertEquals([m[2], m[3]], ["24", "80"]);
      const r = await a.c.request("terminal.resize", { id: t.id, cols: 132, rows: 40 });
      assertEquals([r.terminal.cols, r.terminal.rows], [132, 40]);
      await a.type(t.id, "echo SIZE=$(stty size)\n");
      await a.waitFor(t.id, /SIZE=40 132/, "size after resize");
    });
  },
});

Deno.test({
  name: "terminal: an interactive program is driven by input (read, Ctrl-C, vi)",
  ignore: !linux,
  async fn() {
    await withServer(async (_s, a) => {
      const t = await openShell(a);
      await a.type(t.id, 'read -p "name? " n; echo "hello <$n>"\n');
      await a.waitFor(t.id, /name\? $/, "the prompt of read");
      await a.type(t.id, "Ada\r");
      await a.waitFor(t.id, /hello <Ada>/, "the answer");
      // Ctrl-C interrupts a foreground program; the shell lives on.
      await a.type(t.id, "sleep 30\r");
      await new Promise((r) => setTimeout(r, 600));
      const busy = await a.c.failure("terminal.close", { id: t.id });
      assertEquals(busy.code, "busy");
      assertMatch(busy.message, /sleep/);
      await a.type(t.id, "\x03");
      await a.type(t.id, "echo after-$((6*7))\r");
      await a.waitFor(t.id, /after-42/, "the shell after Ctrl-C");
      // A full-screen program: vi writes a file from typed keys.
      const hasVi = new Deno.Command("sh", { args: ["-c", "command -v vi"] }).outputSync().success;
      if (hasVi) {
        await a.type(t.id, "vi -u NONE /tmp/ra-term-vi-$$.txt\r");
        await a.waitFor(
          t.id,
          /\[\?1049h[^]*~ {20,}/, // the alternate screen, then vi's ~ lines
          "vi's screen (alternate buffer, ~ lines)",
        );
        await new Promise((r) => setTimeout(r, 300)); // vi has read its start-up replies
        await a.type(t.id, "iwritten in vi\x1b");
        await new Promise((r) => setTimeout(r, 300)); // Esc alone, not Alt+key
        await a.type(t.id, ":wq\r");
        // Typed before vi ends, the next line would be read (and dropped) by vi.
        await a.waitFor(t.id, /bytes written|\d+B written/, "vi's write");
        await a.type(t.id, "tr a-z A-Z </tmp/ra-term-vi-$$.txt; rm /tmp/ra-term-vi-$$.txt\r");
        await a.waitFor(t.id, /WRITTEN IN VI/, "the file vi wrote");
      }
    });
  },
});

Deno.test({
  name: "terminal: output reaches a second client, which first gets the kept screen",
  ignore: !linux,
  async fn() {
    await withServer(async (s, a) => {
      const t = await openShell(a);
      await a.type(t.id, "echo before-$((1+1))\r");
      await a.waitFor(t.id, /before-2/, "first output");
      const b = await TermClient.connect(s);
      try {
        const list: TerminalList = await b.c.request("terminal.list");
        assertEquals(list.terminals.map((x) => x.id), [t.id]);
        const screen = await b.attach(t.id);
        assertMatch(screen, /before-2/, "the second client replays the scrollback");
        await a.type(t.id, "echo live-$((2+3))\r");
        await b.waitFor(t.id, /live-5/, "live output on the second client");
        await b.type(t.id, "echo from-b-$((3+4))\r");
        await a.waitFor(t.id, /from-b-7/, "the first client sees the second's input");
      } finally {
        await b.c.close();
      }
    });
  },
});

Deno.test({
  name: "terminal: `yes` for 5 s keeps the server's RSS bounded and the shell answers Ctrl-C",
  ignore: !linux,
  async fn() {
    await withServer(async (s, a) => {
      const t = await openShell(a);
      await a.type(t.id, "echo ready\r");
      await a.waitFor(t.id, /ready/, "ready");
      const before = rssMb(s.process.pid);
      await a.type(t.id, "yes\r");
      let peak = before;
      let received = 0;
      const t0 = Date.now();
      while (Date.now() - t0 < 5000) {
        await new Promise((r) => setTimeout(r, 250));
        peak = Math.max(peak, rssMb(s.process.pid));
        received += (a.out.get(t.id) ?? "").length;
        a.out.set(t.id, ""); // the test client keeps nothing, like a bounded xterm
      }
      await a.type(t.id, "\x03");
      await a.type(t.id, "echo done-$((5*5))\r");
      await a.waitFor(t.id, /done-25/, "the shell after Ctrl-C", 10_000);
      assert(received > 100_000, `output flowed (${received} chars)`);
      assert(peak - before < 40, `server RSS rose ${(peak - before).toFixed(1)} MB`);
      const list: TerminalList = await a.c.request("terminal.list");
      assertEquals(list.terminals.length, 1);
    });
  },
});

Deno.test({
  name: "terminal: a viewer that does not acknowledge holds output to the window, " +
    "then is left behind and gets the whole screen once it catches up",
  ignore: !linux,
  async fn() {
    await withServer(async (s, a) => {
      const t = await openShell(a);
      const b = await TermClient.connect(s);
      try {
        b.acking = false;
        await b.attach(t.id);
        const t0 = Date.now();
        await a.type(t.id, "yes | head -c 1000000; echo END-$((20+22))\r");
        await a.waitFor(t.id, /END-42/, "the flood's end on the acknowledging client", 20_000);
        const took = Date.now() - t0;
        const bound = TERMINAL_LIMITS.ackWindow + 2 * TERMINAL_LIMITS.frameChars;
        assert(b.held <= bound, `the silent viewer got ${b.held} chars (bound ${bound})`);
        assert(took >= 1000, `output waited for the silent viewer first (${took} ms)`);
        assertEquals(b.resets, 0);
        b.ack(t.id, b.held); // it caught up: the whole screen comes again
        await b.waitFor(t.id, /END-42/, "the resynced screen");
        assertEquals(b.resets, 1);
      } finally {
        await b.c.close();
      }
    });
  },
});

Deno.test({
  name: "terminal: closing kills the whole session; stopping the server kills every shell",
  ignore: !linux,
  async fn() {
    const s = await startTestServer({ env: { SHELL: "/bin/bash" } });
    const a = await TermClient.connect(s);
    try {
      const t1 = await openShell(a);
      // A background job in its own process group, and a foreground one.
      await a.type(t1.id, "sleep 300 & echo BG=$!\r");
      const bg = Number((await a.waitFor(t1.id, /BG=(\d+)/, "background pid"))[1]);
      assert(alive(bg) && alive(t1.pid));
      await a.c.request("terminal.close", { id: t1.id, force: true });
      assert(!alive(bg), "the background job was killed");
      assert(!alive(t1.pid), "the shell was killed");
      assertEquals((await a.c.request("terminal.list")).terminals.length, 0);
      assertEquals(
        (await a.c.failure("terminal.input", { id: t1.id, data: "x" })).code,
        "not_found",
      );

      const t2 = await openShell(a);
      await a.type(t2.id, "sleep 300 & echo BG=$!\r");
      const bg2 = Number((await a.waitFor(t2.id, /BG=(\d+)/, "background pid"))[1]);
      await a.c.close();
      await s.stop();
      await until(() => !alive(bg2) && !alive(t2.pid), "server stop killed the shell and its job");
    } finally {
      await s.stop();
    }
  },
});

Deno.test({
  name: "terminal: bad arguments are refused",
  ignore: !linux,
  async fn() {
    await withServer(async (_s, a) => {
      assertEquals(
        (await a.c.failure("terminal.open", { cols: 0, rows: 24 })).code,
        "invalid_args",
      );
      assertEquals((await a.c.failure("terminal.attach", { id: "../x" })).code, "invalid_args");
      assertEquals((await a.c.failure("terminal.attach", { id: "nope" })).code, "not_found");
      const t = await openShell(a);
      const big = "x".repeat(64 * 1024 + 1);
      assertEquals(
        (await a.c.failure("terminal.input", { id: t.id, data: big })).code,
        "invalid_args",
      );
      const { terminal } = await a.c.request("terminal.open", {
        taskId: "missing",
        cols: 80,
        rows: 24,
      })
        .catch((e: { code: string }) => ({ terminal: e.code }));
      assertEquals(terminal, "not_found");
    });
  },
});

Deno.test({
  name: "terminal: reorder sets the tab order every client lists (unknown ids ignored)",
  ignore: !linux,
  async fn() {
    await withServer(async (_s, a) => {
      const t1 = await openShell(a);
      const t2 = await openShell(a);
      const r = await a.c.request("terminal.reorder", { ids: [t2.id, "unknown"] });
      assertEquals(r.terminals.map((x: TerminalInfo) => x.id), [t2.id, t1.id]);
      const list: TerminalList = await a.c.request("terminal.list");
      assertEquals(list.terminals.map((x) => x.id), [t2.id, t1.id]);
    });
  },
});

Deno.test({
  name: "terminal: an exited shell keeps its tab with the exit code and refuses input",
  ignore: !linux,
  async fn() {
    await withServer(async (_s, a) => {
      const t = await openShell(a);
      await a.type(t.id, "exit 7\r");
      await a.waitFor(t.id, /process exited with code 7/, "the exit note", 20_000);
      await a.c.until(
        () =>
          a.c.events.some((e) =>
            e.topic === "terminals" && JSON.stringify(e.data).includes('"exitCode":7')
          ),
        "the list event with the exit code",
      );
      const list: TerminalList = await a.c.request("terminal.list");
      assertEquals(list.terminals.map((x) => x.exitCode), [7]);
      assertEquals((await a.c.failure("terminal.input", { id: t.id, data: "x" })).code, "busy");
      await a.c.request("terminal.close", { id: t.id }); // no confirm: nothing runs
      assertEquals((await a.c.request("terminal.list")).terminals.length, 0);
    });
  },
});

Deno.test({
  name: "terminal: without --allow-ffi the server says the terminal is unavailable and why",
  async fn() {
    const s = await startTestServer({ runFlags: RUN_FLAGS.filter((f) => f !== "--allow-ffi") });
    const a = await TermClient.connect(s);
    try {
      const list: TerminalList = await a.c.request("terminal.list");
      assertEquals(list.available, false);
      assertMatch(list.reason ?? "", linux ? /--allow-ffi/ : /not supported/);
      const e = await a.c.failure("terminal.open", { cols: 80, rows: 24 });
      assertMatch(e.message, /unavailable/);
    } finally {
      await a.c.close();
      await s.stop();
    }
  },
});

Deno.test({
  name: "terminal: the WebSocket that carries it needs the token (no token, wrong token)",
  async fn() {
    const s = await startTestServer();
    try {
      for (const q of ["", "?token=wrong"]) {
        const res = await fetch(`${s.base}/ws${q}`, {
          headers: {
            upgrade: "websocket",
            connection: "Upgrade",
            "sec-websocket-version": "13",
            "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
          },
        });
        await res.body?.cancel();
        assertEquals(res.status, 401, `GET /ws${q}`);
      }
    } finally {
      await s.stop();
    }
  },
});

Deno.test({
  name: "terminal: the shell is $SHELL when executable, else the first of bash/zsh/fish/sh on PATH",
  ignore: !linux,
  fn() {
    const env = (vars: Record<string, string>) => ({ get: (k: string) => vars[k] });
    const bash = detectShell(env({ PATH: "/usr/bin:/bin" }));
    assertMatch(bash, /\/(bash|zsh|fish|sh)$/);
    assertEquals(detectShell(env({ SHELL: "/bin/sh", PATH: "/usr/bin" })), "/bin/sh");
    assertEquals(detectShell(env({ SHELL: "/no/such/shell", PATH: "/usr/bin:/bin" })), bash);
    assertEquals(detectShell(env({ SHELL: "relative/sh", PATH: "/usr/bin:/bin" })), bash);
    assertEquals(detectShell(env({ PATH: "/no/such/dir" })), "/bin/sh");
  },
});
