/**
 * Whether a system library is installed, without loading it: the server decides on a
 * backend (and `doctor` reports it) without mapping WebKit into its own process. Looks
 * where the dynamic loader would: LD_LIBRARY_PATH, /etc/ld.so.conf(.d), the usual dirs.
 */
import { join } from "../../../lib/path.ts";

const USUAL_DIRS = [
  "/lib",
  "/usr/lib",
  "/lib64",
  "/usr/lib64",
  "/usr/local/lib",
  `/usr/lib/${Deno.build.arch}-linux-gnu`,
  `/lib/${Deno.build.arch}-linux-gnu`,
];

function ldConfDirs(file = "/etc/ld.so.conf", depth = 0): string[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch {
    return [];
  }
  const dirs: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) continue;
    const inc = line.match(/^include\s+(.+)$/);
    if (inc && depth < 3) {
      const pattern = inc[1].trim();
      const dir = pattern.replace(/\/[^/]*$/, "");
      const suffix = pattern.endsWith("*.conf") ? ".conf" : null;
      try {
        for (const e of Deno.readDirSync(dir)) {
          if (suffix ? e.name.endsWith(suffix) : join(dir, e.name) === pattern) {
            dirs.push(...ldConfDirs(join(dir, e.name), depth + 1));
          }
        }
      } catch { /* no such dir */ }
    } else if (line.startsWith("/")) dirs.push(line);
  }
  return dirs;
}

/** The library search path, in the loader's order (first wins). */
export function librarySearchDirs(): string[] {
  const env = (Deno.env.get("LD_LIBRARY_PATH") ?? "").split(":").filter(Boolean);
  return [...new Set([...env, ...ldConfDirs(), ...USUAL_DIRS])];
}

/** Where `soname` is, or null. */
export function findSystemLibrary(soname: string, dirs = librarySearchDirs()): string | null {
  for (const dir of dirs) {
    const p = join(dir, soname);
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch { /* not here */ }
  }
  return null;
}
