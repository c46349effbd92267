import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { parseCli } from "../server/cli/args.ts";
import { ROOT, RUN_FLAGS } from "./helpers/server.ts";
import { terminalQr } from "../server/cli/remote.ts";

async function run(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...RUN_FLAGS, `${ROOT}main.ts`, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("cli: --version and --help exit 0", async () => {
  const v = await run(["--version"]);
  assertEquals(v.code, 0);
  assertMatch(v.stdout, /^reinagent \d+\.\d+\.\d+/);
  const h = await run(["--help"]);
  assertEquals(h.code, 0);
  assertMatch(h.stdout, /reinagent serve/);
});

Deno.test("cli: bad flags and commands fail with exit 2 and a clear message", async () => {
  const bad = await run(["--bogus"]);
  assertEquals(bad.code, 2);
  assertMatch(bad.stderr, /unknown option "--bogus"/);
  const cmd = await run(["frobnicate"]);
  assertEquals(cmd.code, 2);
  assertMatch(cmd.stderr, /unknown command "frobnicate"/);
  const port = await run(["serve", "--port", "99999"]);
  assertEquals(port.code, 2);
  assertMatch(port.stderr, /--port must be 0–65535/);
});

Deno.test("cli parser: values, = syntax, combinations", () => {
  assertEquals(parseCli([]), { command: { kind: "window", noOpen: false } });
  assertEquals(parseCli(["serve", "--host=0.0.0.0", "--port", "8080", "--home", "/h"]), {
    command: { kind: "serve", noOpen: false, host: "0.0.0.0", port: 8080, home: "/h" },
  });
  assertEquals(parseCli(["--host", "0.0.0.0"]), { error: "--host is only for `reinagent serve`" });
  assertEquals(parseCli(["serve", "--tls-cert", "c"]), {
    error: "--tls-cert and --tls-key go together",
  });
  assertEquals(parseCli(["serve", "--port"]), { error: "--port needs a value" });
  assertEquals(parseCli(["--no-open"]), { command: { kind: "window", noOpen: true } });
});

Deno.test("qr code: square, quiet zone, only block characters", () => {
  const qr = terminalQr("http://192.0.2.1:8080/?token=abc");
  const lines = qr.split("\n");
  assert(lines.length > 10);
  assert(lines.every((l) => l.length === lines[0].length));
  assert(/^[█▀▄ ]+$/.test(lines.join("")));
  assertEquals(lines[0], "█".repeat(lines[0].length), "quiet zone");
});

Deno.test("cli: doctor reports each check; a corrupt database fails it", async () => {
  const home = await Deno.makeTempDir();
  const ok = await run(["doctor", "--home", home]);
  assertEquals(ok.code, 0, ok.stdout + ok.stderr);
  for (
    const name of ["data dir", "database", "providers", "shell sandbox", "tool sandbox", "window"]
  ) {
    assertMatch(ok.stdout, new RegExp(`✓ ${name}: `));
  }
  await Deno.writeTextFile(`${home}/reinagent.db`, "not a database at all");
  const bad = await run(["doctor", "--home", home]);
  assertEquals(bad.code, 1);
  assertMatch(bad.stdout, /✗ database: file is not a SQLite database/);
  assertEquals(await Deno.readTextFile(`${home}/reinagent.db`), "not a database at all");
  assertEquals((await run(["doctor", "extra"])).code, 2);
});

Deno.test("cli: a busy port is named, in one line, for serve and for the mock LLM", async () => {
  const busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (busy.addr as Deno.NetAddr).port;
  const home = await Deno.makeTempDir();
  try {
    const serve = await run(["serve", "--port", String(port), "--home", home]);
    assertEquals(serve.code, 1);
    assertMatch(serve.stderr, new RegExp(`port ${port} is in use by another program`));
    assert(!/AddrInUse|os error/.test(serve.stderr), serve.stderr);
    const mock = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${ROOT}scripts/mock-llm.ts`, "--port", String(port)],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(mock.stderr);
    assertEquals(mock.code, 1);
    assertEquals(
      text,
      `mock-llm: port ${port} is in use by another program; choose another with --port N\n`,
    );
  } finally {
    busy.close();
    await Deno.remove(home, { recursive: true });
  }
});
