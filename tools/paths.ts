/** Path policy: relative → workspace root; `~` → home; result is absolute and normalised. */
import { isAbsolute, join, normalize, relative, resolve, sep } from "../lib/path.ts";
import { realOrAncestor } from "./real_path.ts";

export function resolvePath(input: string, workspace: string): string {
  let p = input.trim();
  if (p === "~" || p.startsWith("~/")) {
    const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? "";
    p = join(home, p.slice(1));
  }
  return normalize(isAbsolute(p) ? p : resolve(workspace, p));
}

/**
 * The refusal for a FIFO, socket or device: opening one would block the tool forever
 * (a FIFO with no writer) or never reach its end (a device).
 */
export const notRegular = (shown: string): string =>
  `${shown} is not a regular file (a FIFO, socket or device); refused.`;

/** `//`, a `.` or `..` segment, or a trailing slash: a path `relative` must normalise first. */
const NOT_NORMAL = /\/\/|\/\.\.?(?:\/|$)|.\/$/;
const POSIX = Deno.build.os !== "windows";

/** Whether `path` lies inside `root` (or is it). */
export function isInside(path: string, root: string): boolean {
  // Two normalised absolute POSIX paths compare as strings (a tool call tests a dozen
  // pairs; `relative` splits and folds both at each test).
  if (
    POSIX && path[0] === "/" && root[0] === "/" && !NOT_NORMAL.test(path) &&
    !NOT_NORMAL.test(root)
  ) {
    return root === "/" || path === root || path.startsWith(`${root}/`);
  }
  const rel = relative(root, path);
  // `..` as a whole segment only: a file named `..notes` in the root is inside it.
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Path shown to the model/user: relative to the workspace when inside it. */
export function displayPath(path: string, workspace: string): string {
  return isInside(path, workspace) ? (relative(workspace, path) || ".") : path;
}

/**
 * Checks that `path` stays inside one of `roots` after resolving symlinks (Deno's
 * permission checks look at the path as written, so a link inside the workspace
 * could otherwise reach outside). Returns an error text for the model, or null.
 */
export function outsideRoots(path: string, roots: string[]): string | null {
  const real = realOrAncestor(path);
  const realRoots = roots.map((r) => realOrAncestor(r));
  return outsideText(path, real, roots, realRoots);
}

function outsideText(
  path: string,
  real: string,
  roots: readonly string[],
  realRoots: string[],
): string | null {
  if (realRoots.some((realRoot) => isInside(real, realRoot))) return null;
  const via = real !== path ? ` (it resolves to ${real})` : "";
  return `Access denied: ${path}${via} is outside the workspace ${roots[0]}. ` +
    "Only files inside the workspace (or folders the user allowed) can be used.";
}

/**
 * A file tool's path checked both ways with one realpath per path: outside the
 * roots (`outside_workspace`), else inside a hidden path (`hidden_path`); null when usable.
 */
export function pathRefusal(
  path: string,
  roots: readonly string[],
  hidden: readonly string[],
): { code: "outside_workspace" | "hidden_path"; text: string } | null {
  const real = realOrAncestor(path);
  const realRoots = roots.map((r) => realOrAncestor(r));
  const outside = outsideText(path, real, roots, realRoots);
  if (outside) return { code: "outside_workspace", text: outside };
  const secret = hiddenText(path, real, realRoots, hidden, realHidden(hidden));
  return secret ? { code: "hidden_path", text: secret } : null;
}

/**
 * The file a tool call names: its `path` resolved against the workspace, checked to
 * stay inside the allowed roots. Returns the absolute and shown paths, or the error
 * text for the model.
 */
export function toolPath(
  tool: string,
  path: string,
  ctx: { workspace: string; roots?: string[] },
): { abs: string; shown: string } | { error: string } {
  if (!path.trim()) return { error: `${tool} needs a non-empty \`path\`.` };
  const abs = resolvePath(path, ctx.workspace);
  const denied = outsideRoots(abs, ctx.roots ?? [ctx.workspace]);
  return denied ? { error: denied } : { abs, shown: displayPath(abs, ctx.workspace) };
}

/**
 * Whether `path` (after resolving symlinks) lies in one of the `hidden` paths (the data
 * folder, credential folders): the error text for the model, or null. As in the shell
 * sandbox the deepest path decides, so a root inside a hidden folder (DefaultProject in
 * the data folder) stays usable while a hidden folder inside a root stays hidden.
 */
export function hiddenPath(
  path: string,
  hidden: readonly string[],
  roots: readonly string[] = [],
): string | null {
  if (!hidden.length) return null;
  const realRoots = roots.map((r) => realOrAncestor(r));
  return hiddenText(path, realOrAncestor(path), realRoots, hidden, realHidden(hidden));
}

/**
 * The hidden paths resolved: the same list on every call, so missing ones are remembered;
 * each ancestor that decides a remembered one is stamped once per call (one stat for the
 * home folder instead of one per missing credential folder: ~0.4 ms of each file tool call).
 */
const realHidden = (hidden: readonly string[]) => {
  const stamps = new Map<string, string | null>();
  return hidden.map((h) => realOrAncestor(h, true, stamps));
};

function hiddenText(
  path: string,
  real: string,
  realRoots: string[],
  hidden: readonly string[],
  realHidden: string[],
): string | null {
  let deepest = -1;
  for (const rr of realRoots) {
    if (isInside(real, rr)) deepest = Math.max(deepest, rr.length);
  }
  for (const [i, h] of hidden.entries()) {
    const rh = realHidden[i];
    if (isInside(real, rh) && rh.length >= deepest) {
      return `Access denied: ${path} is hidden from the agent (it is inside ${h}, ReinAgent's ` +
        "data folder or a credential folder the user protects).";
    }
  }
  return null;
}

/**
 * The hidden paths that lie below `root`, spelled under `root` as given (it may be a
 * symlink), for walkers to skip.
 */
export function hiddenBelow(root: string, hidden: readonly string[]): Set<string> {
  const out = new Set<string>();
  if (!hidden.length) return out;
  const realRoot = realOrAncestor(root);
  for (const h of hidden) {
    const real = realOrAncestor(h, true);
    if (real !== realRoot && isInside(real, realRoot)) {
      out.add(join(root, relative(realRoot, real)));
    }
  }
  return out;
}
