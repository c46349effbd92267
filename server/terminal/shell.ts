/** Which shell a terminal runs: `$SHELL` when it is an executable, else the first on PATH. */
import { join } from "../../lib/path.ts";

const CANDIDATES = ["bash", "zsh", "fish", "sh"];

function isExecutable(path: string): boolean {
  try {
    const st = Deno.statSync(path);
    return st.isFile && ((st.mode ?? 0o111) & 0o111) !== 0;
  } catch {
    return false;
  }
}

export function detectShell(env: { get(key: string): string | undefined } = Deno.env): string {
  const fromEnv = env.get("SHELL");
  if (fromEnv && fromEnv.startsWith("/") && isExecutable(fromEnv)) return fromEnv;
  const dirs = (env.get("PATH") ?? "/usr/bin:/bin").split(":").filter(Boolean);
  for (const name of CANDIDATES) {
    for (const dir of dirs) {
      const p = join(dir, name);
      if (isExecutable(p)) return p;
    }
  }
  return "/bin/sh";
}
