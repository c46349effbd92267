/**
 * Starts the real server as a child process (`main.ts serve`) in a temporary home,
 * with the working directory set to an empty temporary folder: nothing may be read
 * from the source tree at run time.
 */
import { BUNDLE_RUN_FLAGS } from "../../scripts/build-server.ts";
import { COMPILE_FLAGS } from "../../scripts/compile/graph.ts";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The source with its configuration (import map), and the permissions the app runs with. */
export const RUN_FLAGS = ["run", "--config", `${ROOT}deno.json`, ...COMPILE_FLAGS];

/** The Deno flags for `entry`: the source with the config, the bundle (a `.js`) as `deno task start` runs it. */
export const runFlagsFor = (entry: string): string[] =>
  entry.endsWith(".js") ? BUNDLE_RUN_FLAGS : RUN_FLAGS;

export interface TestServer {
  /** Full URL with ?token= */
  url: string;
  /** http://127.0.0.1:PORT */
  base: string;
  token: string;
  home: string;
  process: Deno.ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** SIGTERM and wait (graceful). */
  stop(): Promise<void>;
  /** SIGKILL and wait (crash). */
  kill(): Promise<void>;
}

/** Deno's cache folder as this process uses it (DENO_DIR, else the platform default). */
export function denoDir(): string {
  const env = Deno.env.get("DENO_DIR");
  if (env) return env;
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  if (xdg) return `${xdg}/deno`;
  const home = Deno.env.get("HOME") ?? "";
  return Deno.build.os === "darwin" ? `${home}/Library/Caches/deno` : `${home}/.cache/deno`;
}

/**
 * The program the tests' servers run: the source, or what `REINAGENT_TEST_ENTRY` names
 * (`dist/server/main.js`: the whole suite against the bundle `deno task start` runs, which
 * the build rewrites; build it first with `deno task build`).
 */
function testEntry(named = Deno.env.get("REINAGENT_TEST_ENTRY")): string {
  if (!named) return `${ROOT}main.ts`;
  return named.startsWith("/") ? named : `${ROOT}${named}`; // relative to the project
}
const TEST_ENTRY = testEntry();

/** A home folder for a test server's user: start-up files that do nothing but set a prompt. */
async function userHome(): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "ra-user-" });
  for (const rc of [".bashrc", ".profile", ".zshrc"]) {
    await Deno.writeTextFile(`${home}/${rc}`, "PS1='$ '\n");
  }
  return home;
}

export async function startTestServer(
  opts: {
    home?: string;
    args?: string[];
    env?: Record<string, string>;
    /** Deno flags instead of RUN_FLAGS (e.g. without a permission). */
    runFlags?: string[];
    /** The program to run (default: the source, `main.ts`; benches run the bundle). */
    entry?: string;
  } = {},
): Promise<TestServer> {
  const home = opts.home ?? await Deno.makeTempDir({ prefix: "ra-home-" });
  const cwd = await Deno.makeTempDir({ prefix: "ra-cwd-" });
  const userDir = opts.env?.HOME === undefined ? await userHome() : null;
  const entry = opts.entry ?? TEST_ENTRY;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      ...(opts.runFlags ?? runFlagsFor(entry)),
      entry,
      "serve",
      "--port",
      "0",
      "--home",
      home,
      ...(opts.args ?? []),
    ],
    cwd,
    // A test that moves HOME must not move Deno's cache with it (a fresh cache would
    // download every npm package before the server can start). The user's home is one
    // of the test's own (shells read no start-up file of the machine's user).
    env: {
      NO_COLOR: "1",
      DENO_DIR: denoDir(),
      HOME: userDir ?? opts.env!.HOME,
      ...opts.env,
    },
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  let out = "";
  const dec = new TextDecoder();
  const pump = async (s: ReadableStream<Uint8Array>) => {
    for await (const chunk of s) out += dec.decode(chunk, { stream: true });
  };
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
  const deadline = Date.now() + 15_000;
  let match: RegExpMatchArray | null = null;
  while (!(match = out.match(/running at (http:\/\/[^\s]+)/))) {
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start within 15 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const url = match[1];
  const u = new URL(url);
  let done = false;
  const finish = async (signal: Deno.Signal) => {
    if (done) return;
    done = true;
    try {
      child.kill(signal);
    } catch { /* already exited */ }
    await child.status;
    await pumps;
    await Deno.remove(cwd, { recursive: true });
    if (userDir) await Deno.remove(userDir, { recursive: true });
  };
  return {
    url,
    base: u.origin,
    token: u.searchParams.get("token")!,
    home,
    process: child,
    output: () => out,
    stop: () => finish("SIGTERM"),
    kill: () => finish("SIGKILL"),
  };
}
