/**
 * Where each tool keeps its sessions, finding them, and reading them read-only with
 * bounds: a file larger than `CARRY_LIMITS.sessionBytes` is reported and skipped,
 * symbolic links are not followed, at most `CARRY_LIMITS.sessions` files are read.
 */
import { basename, join } from "../../../lib/path.ts";
import {
  CARRY_LIMITS,
  type ForeignSource,
  type ForeignSourceInfo,
} from "../../../protocol/carry.ts";
import type { ReadResult } from "./session.ts";
import { readClaudeCode } from "./claude_code.ts";
import { readCodex } from "./codex.ts";
import { readPi } from "./pi.ts";
import { countOpencodeSessions, readOpencodeDb, readOpencodeStorage } from "./opencode.ts";

export const SOURCE_LABELS: Record<ForeignSource, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  opencode: "OpenCode",
  pi: "pi",
};

/** The tool's default session folder on this machine (its own env overrides honoured). */
export function defaultPath(source: ForeignSource, env = Deno.env.toObject()): string {
  const home = env.HOME ?? env.USERPROFILE ?? "/";
  switch (source) {
    case "claude-code":
      return join(env.CLAUDE_CONFIG_DIR ?? join(home, ".claude"), "projects");
    case "codex":
      return join(env.CODEX_HOME ?? join(home, ".codex"), "sessions");
    case "opencode":
      return join(env.XDG_DATA_HOME ?? join(home, ".local", "share"), "opencode");
    case "pi":
      return join(env.PI_CODING_AGENT_DIR ?? join(home, ".pi", "agent"), "sessions");
  }
}

/** Whether a file name is a session file of the tool. */
function isSessionFile(source: ForeignSource, name: string): boolean {
  switch (source) {
    case "claude-code":
    case "pi":
      return name.endsWith(".jsonl");
    case "codex":
      return /^rollout-.*\.jsonl$/.test(name);
    case "opencode":
      return name === "opencode.db";
  }
}

/** Session files under `path` (itself when it is a file), depth ≤ 6, no symlinks followed. */
export async function findSessionFiles(source: ForeignSource, path: string): Promise<string[]> {
  const out: string[] = [];
  const st = await Deno.lstat(path).catch(() => null);
  if (!st) return out;
  if (st.isFile) return [path];
  if (!st.isDirectory) return out;
  if (
    source === "opencode" && await Deno.stat(join(path, "storage", "session")).catch(() => null)
  ) {
    out.push(join(path, "storage"));
  }
  if (source === "opencode" && basename(path) === "storage") return [path];
  const walk = async (dir: string, depth: number) => {
    if (depth > 6 || out.length >= CARRY_LIMITS.sessions) return;
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (out.length >= CARRY_LIMITS.sessions) return;
      if (e.isSymlink) continue;
      const p = join(dir, e.name);
      if (e.isDirectory && !(source === "opencode" && e.name === "snapshot")) {
        await walk(p, depth + 1);
      } else if (e.isFile && isSessionFile(source, e.name)) out.push(p);
    }
  };
  await walk(path, 0);
  return out;
}

/** Reads one session file (or opencode database / storage folder). */
export async function readSessionFile(source: ForeignSource, file: string): Promise<ReadResult> {
  if (source === "opencode") {
    const st = await Deno.stat(file).catch(() => null);
    if (st?.isDirectory) return readOpencodeStorage(file, CARRY_LIMITS.sessions);
    return readOpencodeDb(file);
  }
  const st = await Deno.stat(file).catch(() => null);
  if (!st?.isFile) return { sessions: [], problems: [`${file}: not a file`] };
  if (st.size > CARRY_LIMITS.sessionBytes) {
    return {
      sessions: [],
      problems: [`${file}: larger than ${CARRY_LIMITS.sessionBytes / 1024 / 1024} MB; skipped`],
    };
  }
  const text = await Deno.readTextFile(file);
  const read = source === "claude-code" ? readClaudeCode : source === "codex" ? readCodex : readPi;
  return read(text, file);
}

/** How many sessions each tool has here (files, for the Settings count). */
export async function scanSources(
  sources: readonly ForeignSource[],
  env = Deno.env.toObject(),
): Promise<ForeignSourceInfo[]> {
  const out: ForeignSourceInfo[] = [];
  for (const source of sources) {
    const path = defaultPath(source, env);
    const exists = await Deno.stat(path).then(() => true, () => false);
    let sessions = 0;
    if (exists) {
      const files = await findSessionFiles(source, path);
      if (source === "opencode") {
        for (const f of files) sessions += await countOpencodeSessions(f);
      } else sessions = files.length;
    }
    out.push({ source, label: SOURCE_LABELS[source], path, exists, sessions });
  }
  return out;
}
