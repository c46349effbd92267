/**
 * Refuses a DENORT_BIN that is not a denort for the target. The trap: `deno compile`
 * happily takes the `deno` CLI itself as the base, "succeeds", and the result ignores
 * the app — `reinagent --version` prints `deno 2.9.6`. Signals, cheapest first: the
 * header (format and CPU must fit the target), the file being the very `deno` that runs
 * this script, and what it prints for `--version` (the CLI prints `deno X.Y.Z`; a denort
 * with no app inside fails at once with an error about its missing standalone section).
 */
import { describeKind, executableKind, kindFits, targetKind } from "./executable_kind.ts";

const PROBE_TIMEOUT_MS = 10_000;
/** The first line `deno --version` prints: `deno 2.9.6 (stable, release, x86_64-…)`. */
const DENO_CLI_VERSION = /^deno \d+\.\d+\.\d+\b.*$/m;

export interface ProbeResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs `bin args…` with no input and a time limit; null when it cannot be started. */
export async function probe(bin: string, args: string[]): Promise<ProbeResult | null> {
  let child: Deno.ChildProcess;
  try {
    const env = Deno.env.toObject();
    delete env.DENORT_BIN;
    child = new Deno.Command(bin, {
      args,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch {
    return null;
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch { /* already ended */ }
  }, PROBE_TIMEOUT_MS);
  const out = await child.output();
  clearTimeout(timer);
  const dec = new TextDecoder();
  return {
    code: timedOut ? null : out.code,
    // Bounded: only the first lines matter, a hostile binary may print forever.
    stdout: dec.decode(out.stdout.subarray(0, 64 * 1024)),
    stderr: dec.decode(out.stderr.subarray(0, 64 * 1024)),
    timedOut,
  };
}

async function sameFile(a: string, b: string): Promise<boolean> {
  try {
    const [sa, sb] = await Promise.all([Deno.stat(a), Deno.stat(b)]);
    if (sa.dev !== null && sa.ino !== null) return sa.dev === sb.dev && sa.ino === sb.ino;
    return (await Deno.realPath(a)) === (await Deno.realPath(b));
  } catch {
    return false;
  }
}

async function readHead(path: string): Promise<Uint8Array> {
  const f = await Deno.open(path, { read: true });
  try {
    const buf = new Uint8Array(4096);
    const n = await f.read(buf);
    return buf.subarray(0, n ?? 0);
  } finally {
    f.close();
  }
}

/**
 * Why `path` cannot be the runtime base for `target` ("" = this machine), or null when
 * nothing speaks against it. `denoCli` is the deno running the build (`Deno.execPath()`).
 */
export async function baseBinaryProblem(
  path: string,
  target: string,
  denoCli = Deno.execPath(),
): Promise<string | null> {
  const named = `DENORT_BIN=${path}`;
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (e) {
    return `${named} cannot be read: ${(e as Error).message}`;
  }
  if (!info.isFile) return `${named} is not a file`;

  const host = targetKind(Deno.build.target);
  const want = target ? targetKind(target) : host;
  if (!want) return `unknown target "${target}"`;
  const have = executableKind(await readHead(path));
  if (!have) return `${named} is not an executable (no ELF, Mach-O or PE header)`;
  if (!kindFits(have, want)) {
    return `${named} is a ${describeKind(have)}, but target ${
      target || Deno.build.target
    } needs a ${describeKind(want)}. DENORT_BIN is used as the base for every target: ` +
      `build one target at a time, each with its own denort.`;
  }

  if (await sameFile(path, denoCli)) {
    return `${named} is the deno CLI that runs this build (${denoCli}), not denort. ` +
      `The result would run as deno and ignore the app. Point DENORT_BIN at a denort ` +
      `of the same version (the denort-<target>.zip of the deno release), or unset it.`;
  }

  // Only a binary for this machine can be asked; the header check covers the rest.
  if (host && kindFits(have, host)) {
    const r = await probe(path, ["--version"]);
    const cli = r?.stdout.match(DENO_CLI_VERSION);
    if (cli) {
      return `${named} is the deno CLI (its --version prints "${cli[0].trim()}"), not ` +
        `denort: the result would run as deno and ignore the app. Point DENORT_BIN at a ` +
        `denort of the same version, or unset it.`;
    }
    if (r?.timedOut) {
      return `${named} did not exit within ${PROBE_TIMEOUT_MS / 1000} s when run with ` +
        `--version; a denort with no app inside stops at once.`;
    }
  }
  return null;
}
