/**
 * Workspace confinement for the file tree's actions: a path the client names is
 * resolved against the workspace and must stay inside it, also after symlinks; the
 * root itself (and the repository's `.git`) is protected from rename and delete.
 */
import { normalize } from "../../lib/path.ts";
import { OpError } from "../errors.ts";
import { displayPath, isInside, outsideRoots, resolvePath } from "../../tools/paths.ts";

export interface Confined {
  abs: string;
  /** Relative to the workspace ("." for the root). */
  rel: string;
}

/** `input` inside `ws` (no `..`, absolute paths out or symlinks leading out). */
export function confine(ws: string, input: string): Confined {
  if (input.includes("\0")) throw new OpError("invalid_args", "a path must not contain NUL");
  const abs = resolvePath(input || ".", ws);
  if (!isInside(abs, ws)) {
    throw new OpError("invalid_args", `${input} is outside the task's workspace ${ws}`);
  }
  const denied = outsideRoots(abs, [ws]);
  if (denied) {
    throw new OpError(
      "invalid_args",
      `${displayPath(abs, ws)} leads outside the task's workspace (a symlink): refused`,
    );
  }
  return { abs, rel: displayPath(abs, ws) };
}

/** As {@link confine}, and not the workspace root or its `.git`. */
export function confineChangeable(ws: string, input: string): Confined {
  const c = confine(ws, input);
  if (normalize(c.abs) === normalize(ws)) {
    throw new OpError("invalid_args", "the workspace root cannot be renamed or deleted");
  }
  if (c.rel === ".git" || c.rel.startsWith(".git/")) {
    throw new OpError("invalid_args", "the repository's .git folder is protected");
  }
  return c;
}
