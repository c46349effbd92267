/**
 * Starts the native window's child process and waits until it says the window is up
 * (or why it cannot be): on failure the server goes on to the next backend. The child
 * is this same program (`reinagent __window`, or `child.ts` under `deno run`), with
 * only the permissions a window needs.
 */
import { fileUrlToPath } from "../../../lib/file_url.ts";
import { dirname } from "../../../lib/path.ts";
import { type ChildEvent, type ChildStart, parseChildEvent } from "./protocol.ts";

/** GTK and WebKit start in well under this; a child still silent after it is stuck. */
const READY_TIMEOUT_MS = 20_000;
const STDERR_TAIL = 2000;

export interface NativeStarted {
  ok: true;
  backend: string;
  pid: number;
  exited: Promise<Deno.CommandStatus>;
  close(): void;
  /** The last lines the process wrote to stderr (GTK's and WebKit's warnings), for a crash. */
  lastWords(): string;
}
export type NativeStartResult = NativeStarted | { ok: false; reason: string };

/** The command line of the window's child process. */
export function windowChildArgv(home: string): string[] {
  if (Deno.build.standalone) return [Deno.execPath(), "__window"];
  // The bundled program (dist/server, scripts/build-server.ts) is `main.js __window`.
  const bundled = import.meta.url.endsWith(".js");
  const child = fileUrlToPath(new URL(bundled ? "./main.js" : "./child.ts", import.meta.url));
  const config = fileUrlToPath(new URL("../../../deno.json", import.meta.url));
  let hasConfig = false;
  try {
    // A bundle resolves nothing through the import map: it needs no configuration.
    hasConfig = !bundled && Deno.statSync(config).isFile;
  } catch { /* running from a copy of the module graph without it */ }
  return [
    Deno.execPath(),
    "run",
    "--no-prompt",
    ...(hasConfig ? ["--config", config] : bundled ? ["--no-config"] : []),
    "--allow-ffi",
    "--allow-env",
    // The bundle loads its lazy chunks at run time (scripts/build/lazy_chunks.ts): a
    // dynamic import of a local file needs read access to the program's own folder.
    `--allow-read=${bundled ? `${home},${dirname(child)}` : home}`,
    `--allow-write=${home}`,
    "--v8-flags=--optimize-for-size",
    child,
    ...(bundled ? ["__window"] : []),
  ];
}

/**
 * Spawns the child with `start`; resolves at its first "ready" / "probed" event (ok),
 * or when it failed, ended or stayed silent. Later events go to `onEvent`.
 */
export async function startWindowChild(
  start: ChildStart,
  onEvent: (e: ChildEvent) => void = () => {},
  timeoutMs = READY_TIMEOUT_MS,
): Promise<NativeStartResult> {
  const [bin, ...args] = windowChildArgv(start.home);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(bin, { args, stdin: "piped", stdout: "piped", stderr: "piped" })
      .spawn();
  } catch (e) {
    return { ok: false, reason: `the window process could not start: ${(e as Error).message}` };
  }
  const close = () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already ended */ }
  };
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(start) + "\n")).catch(() => {});
  await writer.close().catch(() => {});

  let stderrTail = "";
  // JavaScriptCore's note about SIGUSR1 (Deno's) is printed at every start: not a reason.
  const lastWords = () =>
    stderrTail.trim().split("\n").filter((l) => l && !/Overriding existing handler/.test(l))
      .slice(-2).join(" / ");
  // Drained for the whole life of the window: a full pipe would block GTK's warnings.
  const stderrDone = (async () => {
    const dec = new TextDecoder();
    for await (const c of child.stderr) {
      stderrTail = (stderrTail + dec.decode(c, { stream: true })).slice(-STDERR_TAIL);
    }
  })().catch(() => {});

  let failure: string | null = null;
  let settle: (r: NativeStartResult) => void = () => {};
  const settled = new Promise<NativeStartResult>((r) => (settle = r));
  const stdoutDone = (async () => {
    const dec = new TextDecoder();
    let buf = "";
    for await (const c of child.stdout) {
      buf += dec.decode(c, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const e = parseChildEvent(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (!e) continue;
        if (e.event === "ready" || e.event === "probed") {
          settle({
            ok: true,
            backend: e.backend,
            pid: child.pid,
            exited: child.status,
            close,
            lastWords,
          });
        } else if (e.event === "failed") failure = e.reason;
        else onEvent(e);
      }
      if (buf.length > 64_000) buf = ""; // not lines of ours
    }
  })().catch(() => {});

  child.status.then(async (s) => {
    // Its last words; not longer (a helper process it started may hold the pipes).
    let t: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all([stdoutDone, stderrDone]),
      new Promise((r) => (t = setTimeout(r, 1000))),
    ]);
    clearTimeout(t);
    const last = lastWords();
    settle({
      ok: false,
      reason: failure ??
        `the window process ended (${s.signal ?? `exit ${s.code}`})${last ? `: ${last}` : ""}`,
    });
  });
  const timer = setTimeout(() => {
    settle({ ok: false, reason: `the window did not open within ${timeoutMs / 1000} s` });
    close();
  }, timeoutMs);
  const r = await settled;
  clearTimeout(timer);
  return r;
}

/** For `reinagent doctor`: would this native backend open a window here? */
export async function probeNative(
  native: { kind: ChildStart["kind"]; lib?: string },
  home: string,
): Promise<{ ok: true; detail: string } | { ok: false; why: string }> {
  const r = await startWindowChild(
    { ...native, url: "http://127.0.0.1/", home, probe: true },
    () => {},
    10_000,
  );
  if (!r.ok) return { ok: false, why: r.reason };
  await r.exited;
  return { ok: true, detail: r.backend };
}
