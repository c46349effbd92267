/**
 * `exec_command`: run a shell command in the workspace (main process: it starts
 * processes, which a permission-narrowed worker cannot).
 *
 * The shell runs in its own process group (see process.ts); on timeout or stop the
 * whole group gets SIGTERM, then SIGKILL after 2 s. stdout and stderr are merged in
 * arrival order and capped at head 10 KB + tail 20 KB, kept as bytes (see output.ts);
 * which parts came from stderr goes to the UI as `meta.segments`.
 * With a sandbox level other than `off` the command runs under bubblewrap when it
 * works on this machine; otherwise meta.sandbox says plainly that there is none.
 */
import { fail, ok, type OutputListener, type ToolContext } from "../types.ts";
import { defineTool } from "../define.ts";
import type { ToolDetails } from "../../protocol/tool_details.ts";
import { doc, num, obj } from "../../protocol/schema.ts";
import { text } from "../args.ts";
import { displayPath, resolvePath } from "../paths.ts";
import {
  bwrapArgs,
  cwdHidden,
  describeSandbox,
  type Hidden,
  type SandboxLevel,
  type SandboxStatus,
  sandboxStatus,
} from "./bwrap.ts";
import { commandEnv, type EnvPolicy } from "./env_policy.ts";
import { OutputBuffer, pumpBytes, type Segment, type StreamName } from "./output.ts";
import { pickShell, terminateGroup } from "./process.ts";

export type { SandboxLevel } from "./bwrap.ts";
export type { Segment, StreamName } from "./output.ts";

export type { OutputListener } from "../types.ts";

/** Default sandbox when the caller does not choose one (bubblewrap where available). */
export const DEFAULT_SANDBOX_LEVEL: SandboxLevel = "workspace-write";
export const DEFAULT_TIMEOUT_S = 120;
export const MAX_TIMEOUT_S = 600;
/** How long to wait for the pipes after the shell exited (background jobs may hold them). */
const DRAIN_MS = 1000;

/** A command's context: the tool context with the capabilities commands use. */
export type ExecContext = ToolContext;

export interface RunOptions {
  command: string;
  /** Absolute, existing directory. */
  cwd: string;
  workspace: string;
  /** Other folders the user allowed; writable in `workspace-write` like the workspace. */
  extraRoots?: string[];
  timeoutMs: number;
  signal: AbortSignal;
  onOutput?: OutputListener;
  /** Every byte as read (a view of a reused buffer: copy what you keep). */
  onBytes?: (bytes: Uint8Array, stream: StreamName) => void;
  sandbox: SandboxLevel;
  network: boolean;
  shell?: string;
  /** Override the probed sandbox status (tests; a UI that forces "no sandbox"). */
  status?: SandboxStatus;
  /** Applied with and without a sandbox; default: only the built-in rules. */
  envPolicy?: EnvPolicy;
  /** Masked inside the sandbox (resolved here; missing ones are skipped). */
  hidden?: string[];
  visible?: string[];
  /** Bytes written to the command's stdin, then closed (hooks' JSON payload); default none. */
  stdin?: Uint8Array;
  /** Variables added after the policy was applied (ReinAgent's own, never secrets). */
  extraEnv?: Record<string, string>;
}

/** A command that cannot start as asked (reported to the model, nothing ran). */
export class CommandRefused extends Error {}

export interface RunResult {
  output: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stopped: boolean;
  /** How the group was stopped on timeout/stop: SIGTERM was enough, or SIGKILL needed. */
  kill: "terminated" | "killed" | "gone" | null;
  durationMs: number;
  truncated: boolean;
  totalBytes: number;
  /** Kept output by stream, in arrival order (the omitted middle as `{omitted}`). */
  segments: Segment[];
  /** Bytes the command wrote to stderr. */
  stderrBytes: number;
  /** Background processes kept the output open after the shell exited. */
  outputHeldOpen: boolean;
  sandbox: string;
  shell: string;
  /** How many environment variables were withheld. */
  envWithheld: number;
}

const realOr = (p: string) => {
  try {
    return Deno.realPathSync(p);
  } catch {
    return p;
  }
};

const isDir = (p: string) => {
  try {
    return Deno.statSync(p).isDirectory;
  } catch {
    return false;
  }
};

/** Hidden paths that exist, by real path, with their kind. */
function existingHidden(paths: string[]): Hidden[] {
  const out: Hidden[] = [];
  for (const p of paths) {
    try {
      const real = Deno.realPathSync(p);
      if (real === "/") continue; // never mask the whole system
      const st = Deno.statSync(real);
      if (!out.some((h) => h.path === real)) out.push({ path: real, dir: st.isDirectory });
    } catch { /* missing: nothing to hide */ }
  }
  return out;
}

/** Runs one command to completion (or timeout/stop). Throws only if it cannot start. */
export async function runCommand(o: RunOptions): Promise<RunResult> {
  const shell = pickShell(o.shell);
  let cmd = shell.path;
  let args = shell.args(o.command);
  const status = o.sandbox === "off" ? null : (o.status ?? await sandboxStatus());
  const sb = describeSandbox(o.sandbox, o.network, status);
  if (sb.use && status?.path) {
    const spec = {
      level: o.sandbox,
      network: o.network || !status.networkIsolation,
      workspace: realOr(o.workspace),
      extraRoots: (o.extraRoots ?? []).filter(isDir).map(realOr),
      cwd: realOr(o.cwd),
      hidden: existingHidden(o.hidden ?? []),
      visible: (o.visible ?? []).filter(isDir).map(realOr),
    };
    const masked = cwdHidden(spec);
    if (masked) {
      throw new CommandRefused(
        `${o.cwd} is inside ${masked.path}, which is hidden from commands (ReinAgent's data ` +
          "folder or a credential folder). Run the command in the workspace instead.",
      );
    }
    args = [...bwrapArgs(spec), "--", cmd, ...args];
    cmd = status.path;
  }
  const env = commandEnv(Deno.env.toObject(), o.envPolicy);
  const started = performance.now();
  const child = new Deno.Command(cmd, {
    args,
    cwd: o.cwd,
    clearEnv: true,
    env: { ...env.env, ...o.extraEnv },
    stdin: o.stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
    detached: Deno.build.os !== "windows",
    windowsRawArguments: shell.windowsRaw,
  }).spawn();

  const out = new OutputBuffer();
  // Text is decoded only while a live listener still wants it; the pumps hand on whole
  // characters, so each piece decodes on its own.
  let listener = o.onOutput;
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const sink = (stream: StreamName) => (bytes: Uint8Array) => {
    out.push(bytes, stream);
    try {
      o.onBytes?.(bytes, stream);
      if (listener && listener(decoder.decode(bytes), stream) === false) listener = undefined;
    } catch { /* a listener error must not break the command */ }
  };
  const pumps = [pumpBytes(child.stdout, sink("out")), pumpBytes(child.stderr, sink("err"))];
  if (o.stdin) feedStdin(child.stdin, o.stdin);

  let reason: "timeout" | "stop" | null = null;
  let killing: Promise<"gone" | "terminated" | "killed"> | null = null;
  const stop = (why: "timeout" | "stop") => {
    if (reason) return;
    reason = why;
    killing = terminateGroup(child.pid);
  };
  const timer = setTimeout(() => stop("timeout"), o.timeoutMs);
  const onAbort = () => stop("stop");
  if (o.signal.aborted) onAbort();
  else o.signal.addEventListener("abort", onAbort, { once: true });

  const st = await child.status;
  clearTimeout(timer);
  o.signal.removeEventListener("abort", onAbort);
  const kill = killing ? await killing : null;

  // Normally the pipes close with the shell; `cmd &` jobs may keep them open.
  let drainTimer: ReturnType<typeof setTimeout> | undefined;
  const drained = await Promise.race([
    Promise.all(pumps.map((p) => p.done)).then(() => true),
    new Promise<false>((r) => drainTimer = setTimeout(() => r(false), DRAIN_MS)),
  ]);
  clearTimeout(drainTimer);
  if (!drained) {
    for (const p of pumps) p.cancel();
    await Promise.all(pumps.map((p) => p.done));
  }
  const res = out.result();
  return {
    output: res.text,
    exitCode: st.signal ? null : st.code,
    signal: st.signal ?? null,
    timedOut: reason === "timeout",
    stopped: reason === "stop",
    kill,
    durationMs: Math.round(performance.now() - started),
    truncated: res.truncated,
    totalBytes: res.totalBytes,
    segments: res.segments,
    stderrBytes: out.bytes.err,
    outputHeldOpen: !drained,
    sandbox: sb.label,
    shell: shell.path,
    envWithheld: env.withheld.length,
  };
}

/** Writes `bytes` and closes stdin; a command that exits without reading it is fine. */
function feedStdin(stdin: WritableStream<Uint8Array>, bytes: Uint8Array): void {
  const w = stdin.getWriter();
  w.write(bytes).then(() => w.close()).catch(() => {/* the command closed its stdin */});
}

function statusLine(r: RunResult, timeoutS: number): string {
  const how = r.kill === "killed" ? " (SIGKILL was needed)" : "";
  if (r.timedOut) {
    return `Timed out after ${timeoutS} s; the command and its children were stopped${how}.`;
  }
  if (r.stopped) return `Stopped by the user${how}.`;
  if (r.signal) return `Killed by signal ${r.signal}.`;
  return `Exit code: ${r.exitCode}`;
}

export const execCommand = defineTool<
  { command: string; cwd?: string; timeout?: number },
  ToolDetails<"exec_command">
>({
  name: "exec_command",
  description: "Run a shell command and return its combined stdout/stderr and exit code. " +
    `Runs in the workspace unless \`cwd\` is given; times out after \`timeout\` seconds ` +
    `(default ${DEFAULT_TIMEOUT_S}, max ${MAX_TIMEOUT_S}), then the command and everything ` +
    "it started are killed. stdin is empty (no interactive prompts). Long output keeps the " +
    "first 10 KB and the last 20 KB. Prefer the read/search tools for reading files.",
  args: obj({
    command: text("The command line, run with the user's shell"),
    "cwd?": text("Working directory; relative to the workspace"),
    "timeout?": doc(
      num({ min: 0, minExclusive: true, max: MAX_TIMEOUT_S }),
      `Seconds before the command is killed (default ${DEFAULT_TIMEOUT_S})`,
    ),
  }),
  kind: "exec",
  placement: "main",
  async execute(args, ctx) {
    if (!args.command.trim()) return fail("exec_command needs a non-empty `command`.");
    const t = args.timeout ?? DEFAULT_TIMEOUT_S;
    const cwd = resolvePath(args.cwd?.trim() ? args.cwd : ".", ctx.workspace);
    const shownCwd = displayPath(cwd, ctx.workspace);
    try {
      if (!Deno.statSync(cwd).isDirectory) return fail(`cwd ${shownCwd} is not a directory.`);
    } catch {
      return fail(`cwd ${shownCwd} does not exist.`);
    }
    if (ctx.signal.aborted) return fail("Stopped by the user before the command started.");
    const sandbox = ctx.sandbox ?? DEFAULT_SANDBOX_LEVEL;
    let r: RunResult;
    try {
      r = await runCommand({
        command: args.command,
        cwd,
        workspace: ctx.workspace,
        extraRoots: [
          ...(ctx.roots ?? []).filter((r) => r !== ctx.workspace),
          ...(ctx.gitRoots ?? []),
        ],
        timeoutMs: t * 1000,
        signal: ctx.signal,
        onOutput: ctx.onOutput,
        sandbox,
        network: ctx.network ?? true,
        shell: ctx.shell,
        envPolicy: ctx.envPolicy,
        hidden: ctx.hidden,
        visible: ctx.visible,
      });
    } catch (e) {
      if (e instanceof CommandRefused) {
        return fail(e.message, {
          cwd: shownCwd,
          refusal: { code: "hidden_path", params: { path: shownCwd } },
        });
      }
      return fail(`Could not start the command: ${(e as Error).message}`, { cwd: shownCwd });
    }
    const notes = [statusLine(r, t)];
    if (r.outputHeldOpen) {
      notes.push("(background processes kept the output open; later output is not shown)");
    }
    // The model reads stdout and stderr merged as a terminal shows them, unmarked:
    // prefixes would cost tokens on every line and break output it may parse; the exit
    // code says that something failed. The UI gets the streams apart (`segments`).
    const body = r.output === "" ? "No output." : r.output.replace(/\n$/, "");
    return (r.timedOut || r.stopped ? fail : ok)(`${body}\n\n${notes.join("\n")}`, {
      exitCode: r.exitCode,
      signal: r.signal,
      timedOut: r.timedOut,
      ...(r.timedOut ? { timeoutS: t } : {}),
      stopped: r.stopped,
      durationMs: r.durationMs,
      truncated: r.truncated,
      totalBytes: r.totalBytes,
      outputHeldOpen: r.outputHeldOpen,
      ...(r.kill && r.kill !== "gone"
        ? { killedWith: r.kill === "killed" ? "SIGKILL" : "SIGTERM" }
        : {}),
      cwd: shownCwd,
      sandbox: r.sandbox,
      shell: r.shell,
      // Only when stderr had something: plain stdout is the output text itself.
      ...(r.stderrBytes > 0 ? { segments: r.segments, stderrBytes: r.stderrBytes } : {}),
    });
  },
});
