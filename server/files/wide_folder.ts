/**
 * Folders too wide to hand an agent: the file system's root, a system folder, the
 * user's home folder, or one that holds ReinAgent's own data folder. Adding one as a
 * project asks for confirmation, and its tasks ask before every change unless the user
 * picks a looser mode for the task itself.
 */
import { resolve, sep } from "../../lib/path.ts";
import { homeDir } from "../../lib/home_dir.ts";

const SYSTEM = new Set([
  "/bin",
  "/boot",
  "/dev",
  "/etc",
  "/lib",
  "/lib64",
  "/opt",
  "/proc",
  "/sbin",
  "/sys",
  "/usr",
  "/var",
  "/System",
  "/Library",
  "/Applications",
  "/Users",
  "/home",
]);

/** Why `folder` is too wide, in a few words; null when it is an ordinary folder. */
export function wideFolderReason(folder: string, dataDir: string): string | null {
  const path = resolve(folder);
  if (path === "/" || /^[A-Za-z]:\\?$/.test(path)) return "the root of the file system";
  if (SYSTEM.has(path)) return "a system folder";
  if (resolve(homeDir()) === path) return "your whole home folder";
  const data = resolve(dataDir);
  if (data === path || data.startsWith(path.endsWith(sep) ? path : path + sep)) {
    return "it holds ReinAgent's own data folder";
  }
  return null;
}
