/**
 * The user's home directory the way Node's `os.homedir()` finds it (USERPROFILE on
 * Windows, HOME elsewhere, then the passwd entry), without importing `node:os`
 * (~10 ms of Node compatibility code at start).
 */
export function homeDir(): string {
  const env = Deno.env.get(Deno.build.os === "windows" ? "USERPROFILE" : "HOME");
  if (env) return env;
  return passwdHome() ?? (Deno.build.os === "windows" ? "C:\\" : "/");
}

/** The home field of this user's line in /etc/passwd, if it can be read. */
function passwdHome(): string | null {
  try {
    const uid = String(Deno.uid());
    for (const line of Deno.readTextFileSync("/etc/passwd").split("\n")) {
      const f = line.split(":");
      if (f.length >= 7 && f[2] === uid && f[5]) return f[5];
    }
  } catch { /* no permission, or no such file */ }
  return null;
}
