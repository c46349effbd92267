/**
 * Shell selection and process-group control for shell commands.
 *
 * A command is spawned with `Deno.Command({ detached: true })`, which on Unix calls
 * `setsid()` in the child: the shell leads a new session and process group whose id
 * is its pid, with no controlling terminal. Everything it starts (pipelines, `&`
 * jobs, grandchildren) inherits that group, so `kill(-pid)` reaches all of them.
 */

const IS_WINDOWS = Deno.build.os === "windows";

export interface Shell {
  /** Executable to spawn. */
  path: string;
  /** Arguments that make it run `command` and exit. */
  args(command: string): string[];
  /** Windows: pass the arguments verbatim (cmd.exe does its own parsing). */
  windowsRaw: boolean;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * The user's shell: `preferred` (a configured shell) or `$SHELL` when it exists, else
 * /bin/bash, else /bin/sh. On Windows: `%ComSpec%` (cmd.exe) with `/d /s /c`, or
 * PowerShell when that is the configured shell.
 */
export function pickShell(preferred?: string): Shell {
  if (IS_WINDOWS) {
    const want = preferred ?? Deno.env.get("ComSpec") ?? "cmd.exe";
    if (/powershell|pwsh/i.test(want)) {
      return {
        path: want,
        args: (c) => ["-NoLogo", "-NoProfile", "-NonInteractive", "-Command", c],
        windowsRaw: false,
      };
    }
    // `/s /c "<command>"`: cmd strips the outer quotes and runs the rest as typed.
    return { path: want, args: (c) => ["/d", "/s", "/c", `"${c}"`], windowsRaw: true };
  }
  const candidates = [preferred, Deno.env.get("SHELL"), "/bin/bash", "/bin/sh"];
  const path = candidates.find((p): p is string => !!p && p.startsWith("/") && isFile(p)) ??
    "/bin/sh";
  return { path, args: (c) => ["-c", c], windowsRaw: false };
}

/** Sends `signal` to the process group `pgid`; false when no such group exists. */
export function signalGroup(pgid: number, signal: Deno.Signal): boolean {
  try {
    Deno.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether any live (non-zombie) process is left in group `pgid`. Zombies matter: in
 * containers whose PID 1 does not reap orphans (this test machine is one), killed
 * orphans stay zombies forever and `kill(-pgid, 0)` keeps succeeding.
 */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, "SIGCONT")) return false; // SIGCONT: harmless, wakes stopped jobs
  if (Deno.build.os !== "linux") return true;
  try {
    for (const e of Deno.readDirSync("/proc")) {
      const c = e.name.charCodeAt(0);
      if (c < 48 || c > 57) continue;
      let stat: string;
      try {
        stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      } catch {
        continue; // exited meanwhile
      }
      // "pid (comm) S ppid pgrp …" — comm may contain spaces and parentheses.
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(f[2]) === pgid && f[0] !== "Z" && f[0] !== "X") return true;
    }
    return false;
  } catch {
    return true; // no /proc: trust kill()
  }
}

/** Whether process `pid` is alive and not a zombie (used by tests and by the UI). */
export function processAlive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
  } catch {
    return false;
  }
  if (Deno.build.os !== "linux") return true;
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const state = stat.slice(stat.lastIndexOf(")") + 2)[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Stops the whole process group of `pid`: SIGTERM, then SIGKILL if anything is still
 * alive after `graceMs`. Returns how it ended. Windows: `taskkill /T /F` (no grace).
 */
export async function terminateGroup(
  pid: number,
  graceMs = 2000,
): Promise<"gone" | "terminated" | "killed"> {
  if (IS_WINDOWS) {
    try {
      await new Deno.Command("taskkill", {
        args: ["/pid", String(pid), "/T", "/F"],
        stdout: "null",
        stderr: "null",
      }).output();
    } catch { /* already gone */ }
    return "killed";
  }
  if (!signalGroup(pid, "SIGTERM")) return "gone";
  signalGroup(pid, "SIGCONT"); // a stopped process only sees SIGTERM once continued
  const deadline = performance.now() + graceMs;
  while (performance.now() < deadline) {
    await sleep(Math.min(50, Math.max(1, deadline - performance.now())));
    if (!groupAlive(pid)) return "terminated";
  }
  signalGroup(pid, "SIGKILL");
  return "killed";
}
