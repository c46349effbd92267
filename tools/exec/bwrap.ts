/**
 * bubblewrap (`bwrap`) sandbox for shell commands (Linux).
 *
 * Levels:
 * - `off`: no sandbox; the command runs as the user.
 * - `workspace-write`: the whole file system read-only, the workspace writable, a
 *   private tmpfs on /tmp.
 * - `read-only`: the same without the writable workspace (only the tmpfs /tmp).
 * Network is a separate switch: off = `--unshare-net` (a private network namespace
 * with its own loopback; services on the host, 127.0.0.1 included, are unreachable).
 *
 * Process control: the sandbox also gets `--unshare-pid` (when its init dies the kernel
 * kills everything inside) and `--die-with-parent` (SIGKILL for all sandbox processes
 * when bwrap or its parent — ReinAgent — dies, so a crash leaves no sandboxed orphans).
 * `--new-session` is deliberately NOT used: it would move the command into a new
 * session and process group, out of reach of our group kill (`kill(-pid)`), and it
 * buys nothing here: the command is already spawned with `setsid()` (detached), so it
 * has no controlling terminal, and `--dev` gives it a private /dev without the host's
 * pseudo-terminals — the TIOCSTI keystroke injection `--new-session` guards against
 * has no terminal to target.
 *
 * Known gaps: Unix sockets reachable through the read-only root (e.g. a Docker socket
 * under /run) still accept connections; `--unshare-net` does not block them.
 */
import { isInside } from "../paths.ts";

export type SandboxLevel = "off" | "workspace-write" | "read-only";
export const SANDBOX_LEVELS: readonly SandboxLevel[] = ["off", "workspace-write", "read-only"];

export interface SandboxStatus {
  backend: "bwrap" | "none";
  /** Whether bwrap was found and a trial sandbox actually ran on this machine. */
  available: boolean;
  /** Why it is unavailable (or why network isolation is), in plain words. */
  reason?: string;
  /** Absolute path of the bwrap executable when found. */
  path?: string;
  /** Whether `--unshare-net` works here (network-off sandboxes). */
  networkIsolation?: boolean;
}

/** Flags every sandbox uses; also what the availability probe runs. */
const BASE_FLAGS = [
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
  "--tmpfs",
  "/tmp",
  "--unshare-pid",
  "--die-with-parent",
];

/** `name` resolved through $PATH, or null. */
export function findInPath(name: string): string | null {
  const sep = Deno.build.os === "windows" ? ";" : ":";
  for (const dir of (Deno.env.get("PATH") ?? "").split(sep)) {
    if (!dir) continue;
    const p = `${dir}/${name}`;
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch { /* not here */ }
  }
  return null;
}

async function trial(bwrap: string, extra: string[]): Promise<string | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const child = new Deno.Command(bwrap, {
      args: [...BASE_FLAGS, ...extra, "--", "true"],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const out = await child.output();
    if (out.success) return null;
    const err = new TextDecoder().decode(out.stderr).trim();
    return err || `bwrap exited with ${out.signal ?? `code ${out.code}`}`;
  } catch (e) {
    return (e as Error).message;
  } finally {
    clearTimeout(timer);
  }
}

/** Checks whether bwrap exists (at `path`, or on $PATH) and can really run here. */
export async function probeBwrap(path?: string): Promise<SandboxStatus> {
  if (Deno.build.os !== "linux") {
    return { backend: "none", available: false, reason: "bubblewrap exists only on Linux" };
  }
  const bwrap = path ?? findInPath("bwrap");
  if (!bwrap) {
    return {
      backend: "none",
      available: false,
      reason: "bwrap not found on PATH (install the bubblewrap package)",
    };
  }
  const err = await trial(bwrap, []);
  if (err) {
    return { backend: "none", available: false, path: bwrap, reason: `bwrap cannot run: ${err}` };
  }
  const netErr = await trial(bwrap, ["--unshare-net"]);
  return {
    backend: "bwrap",
    available: true,
    path: bwrap,
    networkIsolation: netErr === null,
    ...(netErr ? { reason: `network isolation unavailable: ${netErr}` } : {}),
  };
}

/** How long a failed probe is trusted before the next status request probes again. */
export const SANDBOX_RETRY_MS = 30_000;

/**
 * The sandbox backend of this machine. A probe that succeeded is kept for the life of
 * the process; one that failed is not: the next request after `retryMs` (typically the
 * next command that would otherwise run unsandboxed) probes again, so a bubblewrap that
 * was busy, installed or permitted later is used from then on, and a failure at start
 * never leaves commands unsandboxed for good. Listeners hear every change of
 * availability (to push it to the clients).
 */
export class SandboxState {
  private last: SandboxStatus | null = null;
  private pending: Promise<SandboxStatus> | null = null;
  private probedAt = 0;
  private listeners = new Set<(s: SandboxStatus) => void>();

  constructor(
    private probe: () => Promise<SandboxStatus> = () => probeBwrap(),
    private now: () => number = Date.now,
    private retryMs = SANDBOX_RETRY_MS,
  ) {}

  /** The status, probing when none is known, when `refresh`, or when a failure is due again. */
  get(refresh = false): Promise<SandboxStatus> {
    if (this.pending) return this.pending;
    const due = this.last !== null && !this.last.available &&
      this.now() - this.probedAt >= this.retryMs;
    if (this.last && !refresh && !due) return Promise.resolve(this.last);
    return this.run();
  }

  /** Calls `fn` whenever availability changes; returns the unsubscribe. */
  onChange(fn: (s: SandboxStatus) => void): () => void {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }

  /** Tests: another probe (and clock), forgetting what was probed before. */
  reset(
    probe: () => Promise<SandboxStatus> = () => probeBwrap(),
    now: () => number = Date.now,
    retryMs = SANDBOX_RETRY_MS,
  ): void {
    Object.assign(this, { probe, now, retryMs, last: null, pending: null, probedAt: 0 });
  }

  private run(): Promise<SandboxStatus> {
    const before = this.last;
    const p = this.probe().catch((e): SandboxStatus => ({
      backend: "none",
      available: false,
      reason: `probing bwrap failed: ${(e as Error)?.message ?? e}`,
    })).then((s) => {
      if (this.pending !== p) return s; // reset meanwhile: this answer is stale
      this.pending = null;
      this.last = s;
      this.probedAt = this.now();
      if (before && before.available !== s.available) {
        for (const fn of [...this.listeners]) fn(s);
      }
      return s;
    });
    this.pending = p;
    return p;
  }
}

/** This process's sandbox state (the server, `reinagent doctor`, commands). */
export const SANDBOX = new SandboxState();

/** The sandbox backend of this machine (see {@link SandboxState}). */
export function sandboxStatus(refresh = false): Promise<SandboxStatus> {
  return SANDBOX.get(refresh);
}

export interface SandboxSpec {
  level: SandboxLevel;
  network: boolean;
  /** Absolute workspace path (bound read-write for `workspace-write`). */
  workspace: string;
  /** Further folders the user allowed (bound like the workspace). */
  extraRoots?: string[];
  /** Absolute working directory of the command. */
  cwd: string;
  /**
   * Real paths masked inside the sandbox (the data folder, the user's credential
   * files): a directory becomes an empty read-only tmpfs, a file reads as empty. A
   * root or `visible` path inside one is bound back on top.
   */
  hidden?: Hidden[];
  /** Paths bound back read-only although they lie inside a hidden folder. */
  visible?: string[];
}

export interface Hidden {
  path: string;
  dir: boolean;
}

const depth = (p: string) => p.split("/").filter(Boolean).length;

/** Whether `p` is `root` or lies below it (plain string test on normalised paths). */
const under = (p: string, root: string) =>
  p === root || p.startsWith(root.endsWith("/") ? root : `${root}/`);

/** Whether the cwd would only be reachable by uncovering a hidden path. */
export function cwdHidden(spec: SandboxSpec): Hidden | null {
  const roots = [spec.workspace, ...(spec.extraRoots ?? []), ...(spec.visible ?? [])];
  // The deepest mount covering the cwd decides what it sees.
  let best: { depth: number; hidden: Hidden | null } = { depth: -1, hidden: null };
  for (const r of roots) {
    if (under(spec.cwd, r) && depth(r) > best.depth) best = { depth: depth(r), hidden: null };
  }
  for (const h of spec.hidden ?? []) {
    if (under(spec.cwd, h.path) && depth(h.path) >= best.depth) {
      best = { depth: depth(h.path), hidden: h };
    }
  }
  return best.hidden;
}

/**
 * bwrap arguments (before `--` and the command) for a sandbox level. Mounts are
 * ordered from the shallowest path to the deepest, so a deeper one wins: the workspace
 * inside the hidden data folder (DefaultProject) is bound back, and a hidden folder
 * inside the workspace stays hidden. At equal depth hiding comes last (safety wins).
 */
export function bwrapArgs(spec: SandboxSpec): string[] {
  if (spec.level === "off") throw new Error("bwrapArgs: level off has no sandbox");
  const args = [...BASE_FLAGS];
  const roots = [spec.workspace, ...(spec.extraRoots ?? [])];
  const bind = spec.level === "workspace-write" ? "--bind" : "--ro-bind";
  type Mount = { path: string; flags: string[]; order: number };
  const mounts: Mount[] = roots.map((r) => ({ path: r, flags: [bind, r, r], order: 0 }));
  for (const v of spec.visible ?? []) {
    mounts.push({ path: v, flags: ["--ro-bind", v, v], order: 0 });
  }
  if (!roots.some((r) => isInside(spec.cwd, r))) {
    mounts.push({ path: spec.cwd, flags: ["--ro-bind", spec.cwd, spec.cwd], order: 0 });
  }
  for (const h of spec.hidden ?? []) {
    mounts.push({
      path: h.path,
      flags: h.dir ? ["--tmpfs", h.path] : ["--ro-bind", "/dev/null", h.path],
      order: 1,
    });
  }
  mounts.sort((a, b) => depth(a.path) - depth(b.path) || a.order - b.order);
  for (const m of mounts) args.push(...m.flags);
  // Read-only last: binds inside a hidden folder needed their mount points created first.
  for (const h of spec.hidden ?? []) if (h.dir) args.push("--remount-ro", h.path);
  if (!spec.network) args.push("--unshare-net");
  args.push("--chdir", spec.cwd);
  return args;
}

/** How a command will actually run, for meta and the UI. Never claims a sandbox it lacks. */
export function describeSandbox(
  level: SandboxLevel,
  network: boolean,
  status: SandboxStatus | null,
): { use: boolean; label: string } {
  if (level === "off") return { use: false, label: "off" };
  if (!status?.available) {
    return { use: false, label: `none (bwrap unavailable: ${status?.reason ?? "not probed"})` };
  }
  if (!network && !status.networkIsolation) {
    return {
      use: true,
      label: `bwrap (${level}; network NOT isolated: ${status.reason ?? "unshare-net failed"})`,
    };
  }
  return { use: true, label: `bwrap (${level}, network ${network ? "on" : "off"})` };
}
