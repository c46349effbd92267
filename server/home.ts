/**
 * The data directory (`~/.reinagent`, or `REINAGENT_HOME` / `--home`) and its layout.
 */
import { join } from "../lib/path.ts";

export const HOME_DIRS = [
  "DefaultProject",
  "checkpoints",
  "skills",
  "memory",
  "notebooks",
  "assistants",
  "backups",
] as const;

/** Resolves the data dir: explicit flag, then REINAGENT_HOME, then ~/.reinagent. */
export function resolveHome(flag?: string): string {
  if (flag) return flag;
  const env = Deno.env.get("REINAGENT_HOME");
  if (env) return env;
  const userHome = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  if (!userHome) {
    throw new Error("cannot find the home directory: set REINAGENT_HOME or pass --home");
  }
  return join(userHome, ".reinagent");
}

/** Creates the data dir and its sub-folders (owner-only permissions). */
/**
 * Synchronous: eight folders that mostly exist already are a few microseconds each, while
 * each async call is a round trip through the runtime's thread pool (every start pays it).
 */
export function ensureHome(home: string): void {
  Deno.mkdirSync(home, { recursive: true, mode: 0o700 });
  for (const d of HOME_DIRS) Deno.mkdirSync(join(home, d), { recursive: true });
}

export const dbPath = (home: string) => join(home, "reinagent.db");
export const tokenPath = (home: string) => join(home, "token");
export const instancePath = (home: string) => join(home, "instance.json");

/**
 * Why the data dir cannot be used, in plain words (a read-only or full disk, a folder
 * this user may not write): for the error a start or a command prints.
 */
export function homeProblem(home: string, e: unknown): string {
  const msg = (e as Error)?.message ?? String(e);
  const why = /read-only file system|os error 30/i.test(msg)
    ? "it is on a read-only file system"
    : /no space left|os error 28/i.test(msg)
    ? "its disk is full"
    : e instanceof Deno.errors.PermissionDenied || e instanceof Deno.errors.NotCapable
    ? "this user may not write there"
    : msg;
  return `cannot use the data dir ${home}: ${why}. ReinAgent keeps its database there; ` +
    "choose a writable folder with --home DIR or REINAGENT_HOME (nothing was changed)";
}
