/**
 * Runs the `git` CLI for the git panel: an argument array (never a shell
 * string), no prompts (GIT_TERMINAL_PROMPT=0, no askpass), no pager, a time limit and
 * bounded output, so a hostile repository cannot hang or flood the server.
 */

/** Output kept from one git command, in bytes (stdout and stderr each). */
export const GIT_OUTPUT_CAP = 4 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout was cut at {@link GIT_OUTPUT_CAP} (or the caller's cap). */
  truncated: boolean;
}

/** Git is missing from PATH (the panel says so instead of failing obscurely). */
export class GitMissingError extends Error {
  constructor() {
    super("git is not installed (no `git` program on PATH)");
  }
}

/** Reads a stream up to `cap` bytes, then drains the rest without keeping it. */
async function readCapped(
  stream: ReadableStream<Uint8Array>,
  cap: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stream) {
    if (size >= cap) {
      truncated = true;
      continue;
    }
    const room = cap - size;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept.length < chunk.length) truncated = true;
    chunks.push(kept);
    size += kept.length;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { bytes, truncated };
}

const decoder = () => new TextDecoder("utf-8");

/**
 * Runs `git <args>` in `cwd`. Never throws for a non-zero exit (the caller reads `code`);
 * throws {@link GitMissingError} when git is not installed.
 */
export async function runGit(
  cwd: string,
  args: string[],
  opts: { input?: string; cap?: number; timeoutMs?: number } = {},
): Promise<GitResult> {
  const cap = opts.cap ?? GIT_OUTPUT_CAP;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("git", {
      // quotepath off: paths come back as UTF-8, not octal escapes. No hooks and no
      // fsmonitor: the agent can write `.git/`, and git runs those outside the sandbox.
      args: [
        "-c",
        "core.quotepath=false",
        "-c",
        "color.ui=false",
        "-c",
        "core.hooksPath=/dev/null",
        "-c",
        "core.fsmonitor=false",
        ...args,
      ],
      cwd,
      stdin: opts.input === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      env: {
        GIT_TERMINAL_PROMPT: "0",
        GIT_ASKPASS: "",
        SSH_ASKPASS: "",
        GIT_PAGER: "cat",
        GIT_EDITOR: "true",
        GIT_OPTIONAL_LOCKS: "0",
        LC_ALL: "C",
      },
    }).spawn();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new GitMissingError();
    throw e;
  }
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    if (opts.input !== undefined) {
      const w = child.stdin.getWriter();
      await w.write(new TextEncoder().encode(opts.input)).catch(() => {});
      await w.close().catch(() => {});
    }
    const [out, err, status] = await Promise.all([
      readCapped(child.stdout, cap),
      readCapped(child.stderr, 64 * 1024),
      child.status,
    ]);
    return {
      code: status.signal ? 128 + 9 : status.code,
      stdout: decoder().decode(out.bytes),
      stderr: decoder().decode(err.bytes),
      truncated: out.truncated,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** A path as a pathspec that git takes literally, from the top of the work tree. */
export const literal = (path: string): string => `:(top,literal)${path}`;

/** Whether git is installed (cached for the process). */
let installed: Promise<boolean> | null = null;
export function gitInstalled(): Promise<boolean> {
  installed ??= runGit(Deno.cwd(), ["--version"]).then((r) => r.code === 0, () => false);
  return installed;
}
