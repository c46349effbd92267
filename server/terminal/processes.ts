/**
 * The processes of a terminal's session: to tell whether something besides the shell
 * runs, and to kill every one of them when the terminal closes — the shell's jobs live
 * in their own process groups, so killing the shell's group alone is not enough.
 *
 * Listed with `ps` (Deno grants /proc only with --allow-all); without `ps` only the
 * shell's own process group is known.
 */

export interface SessionProcess {
  pid: number;
  /** Process group: a job of the shell has its own. */
  pgid: number;
  command: string;
}

/** Parses `ps -e -o pid=,pgid=,sid=,stat=,comm=` lines. */
export function parsePs(text: string, sid: number): SessionProcess[] {
  const out: SessionProcess[] = [];
  for (const line of text.split("\n")) {
    const m = line.trim().match(/^(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/);
    if (!m || Number(m[3]) !== sid) continue;
    if (m[4].startsWith("Z")) continue; // dead, only waiting for its parent to reap it
    out.push({ pid: Number(m[1]), pgid: Number(m[2]), command: m[5].trim() });
  }
  return out;
}

/** Every live process whose session id is `sid` (the shell's pid), the leader included. */
export async function sessionProcesses(sid: number): Promise<SessionProcess[] | null> {
  try {
    const out = await new Deno.Command("ps", {
      args: ["-e", "-o", "pid=,pgid=,sid=,stat=,comm="],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!out.success) return null;
    return parsePs(new TextDecoder().decode(out.stdout), sid);
  } catch {
    return null; // no ps here
  }
}

function signal(pid: number, sig: Deno.Signal): void {
  try {
    Deno.kill(pid, sig);
  } catch { /* already gone */ }
}

/** SIGHUP to the whole session (each process and group), then SIGKILL after `graceMs`. */
export async function killSession(sid: number, graceMs = 300): Promise<void> {
  const targets = async () => {
    const procs = await sessionProcesses(sid) ?? [];
    const groups = new Set([sid, ...procs.map((p) => p.pgid)]);
    return { pids: procs.map((p) => p.pid), groups: [...groups] };
  };
  const send = (t: { pids: number[]; groups: number[] }, sig: Deno.Signal) => {
    for (const g of t.groups) signal(-g, sig);
    for (const p of t.pids) signal(p, sig);
  };
  const first = await targets();
  send(first, "SIGHUP");
  send(first, "SIGCONT"); // a stopped job only sees SIGHUP once it runs
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (((await sessionProcesses(sid)) ?? []).length === 0) return;
    await new Promise((r) => setTimeout(r, 30));
  }
  const last = await targets();
  send(
    { pids: [...first.pids, ...last.pids], groups: [...first.groups, ...last.groups] },
    "SIGKILL",
  );
}
