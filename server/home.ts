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
export async function ensureHome(home: string): Promise<void> {
  await Deno.mkdir(home, { recursive: true, mode: 0o700 });
  await Promise.all(HOME_DIRS.map((d) => Deno.mkdir(join(home, d), { recursive: true })));
}

export const dbPath = (home: string) => join(home, "reinagent.db");
export const tokenPath = (home: string) => join(home, "token");
export const instancePath = (home: string) => join(home, "instance.json");
