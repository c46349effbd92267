/**
 * A project's setup command, run in each new worktree before its task starts (copy
 * `.env`, `npm install` …): in the task's own sandbox (the worktree writable, the data
 * folder and credential folders hidden, provider keys withheld), its output kept as the
 * task's first note. A failure is said in the task and the agent does not start.
 */
import type { Entry, TaskSettings } from "../../protocol/index.ts";
import type { Repos } from "../../store/store.ts";
import { runCommand } from "../../tools/exec/exec_command.ts";
import { commandPolicy } from "../agent/command_policy.ts";
import { getSettings } from "../providers/catalog.ts";
import { writableGitPaths } from "./worktree.ts";

/** A setup that runs longer than this is stopped (and counts as failed). */
const SETUP_TIMEOUT_MS = 15 * 60_000;

export interface SetupDeps {
  repos: Repos;
  home: string;
  /** Writes (or replaces) the task's setup note and shows it to every client. */
  note(entry: Omit<Entry, "taskId" | "pos" | "createdAt" | "updatedAt"> | Entry): Entry;
}

/** The setup command of the project a worktree came from, if it has one. */
export function setupCommandOf(repos: Repos, settings: TaskSettings): string | null {
  const repo = settings.worktree?.repo;
  if (!repo) return null;
  return repos.projects.byPath(repo)?.setupCommand ?? null;
}

/** Runs the setup; true when it succeeded (the task may start). */
export async function runSetup(
  d: SetupDeps,
  settings: TaskSettings,
  command: string,
  signal: AbortSignal,
): Promise<boolean> {
  const wt = settings.worktree!;
  const policy = commandPolicy(d.repos, d.home);
  const started = d.note({
    id: "",
    role: "system",
    status: "streaming",
    parts: [{ type: "text", text: `Setting up the worktree: ${command}` }],
    meta: { kind: "setup", command },
  });
  const r = await runCommand({
    command,
    cwd: wt.path,
    workspace: wt.path,
    extraRoots: writableGitPaths(wt),
    timeoutMs: SETUP_TIMEOUT_MS,
    signal,
    sandbox: settings.sandbox ?? getSettings(d.repos).sandboxLevel,
    network: getSettings(d.repos).sandboxNetwork,
    envPolicy: policy.envPolicy,
    hidden: policy.hidden,
    visible: [wt.commonDir],
  }).catch((e) => ({ failed: (e as Error).message }));
  const ok = !("failed" in r) && r.exitCode === 0 && !r.timedOut && !r.stopped;
  const text = "failed" in r
    ? `The setup could not start: ${r.failed}`
    : `${r.output.trimEnd()}\n\nExit code: ${r.exitCode ?? r.signal}${
      r.timedOut ? " (timed out)" : ""
    }`;
  d.note({
    ...started,
    status: ok ? "done" : "error",
    parts: [{ type: "text", text }],
    meta: {
      kind: "setup",
      command,
      ok,
      ...("failed" in r ? {} : { exitCode: r.exitCode, durationMs: r.durationMs }),
    },
  });
  return ok;
}
