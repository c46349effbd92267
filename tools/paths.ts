/** Path policy: relative → workspace root; `~` → home; result is absolute and normalised. */
import { isAbsolute, join, normalize, relative, resolve } from "node:path";

export function resolvePath(input: string, workspace: string): string {
  let p = input.trim();
  if (p === "~" || p.startsWith("~/")) {
    const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? "";
    p = join(home, p.slice(1));
  }
  return normalize(isAbsolute(p) ? p : resolve(workspace, p));
}

/** Whether `path` lies inside `root` (or is it). */
export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** Path shown to the model/user: relative to the workspace when inside it. */
export function displayPath(path: string, workspace: string): string {
  return isInside(path, workspace) ? (relative(workspace, path) || ".") : path;
}
