/**
 * Real paths for the path checks: a path's realpath, or its nearest existing ancestor's
 * joined with the rest. Synchronous on purpose: a realpath is a few microseconds, while
 * each async call hops to the runtime's thread pool and back (a tool call resolves a
 * dozen paths, and the async round cost ~4 ms of every file tool call).
 */
import { basename, dirname, join } from "../lib/path.ts";

/** A missing path as it resolved, and the state of the ancestor that decided it. */
interface Missing {
  real: string;
  ancestor: string;
  stamp: string;
}

/**
 * Missing paths that are resolved on every call (the hidden credential folders: most of
 * the default list does not exist, and each missing level costs a thrown NotFound,
 * ~0.05 ms, ~0.5 ms per tool call in all). While the existing ancestor's device, inode,
 * change and modification times stay the same, nothing was created, removed or renamed
 * in it, so the path is still missing and resolves as before. Git's rule for racy
 * timestamps: an ancestor changed within the last seconds is not remembered, as a change
 * in the same clock tick would leave its times as they were.
 */
const missing = new Map<string, Missing>();
const MISSING_CAP = 256;
const RACY_MS = 2_000;

/** The ancestor's state, or null when it cannot be trusted (recent, unreadable). */
function stampOf(path: string): string | null {
  try {
    const s = Deno.statSync(path);
    const changed = Math.max(s.mtime?.getTime() ?? NaN, s.ctime?.getTime() ?? NaN);
    if (!(Date.now() - changed >= RACY_MS)) return null;
    return `${s.dev}:${s.ino}:${s.mtime!.getTime()}:${s.ctime!.getTime()}`;
  } catch {
    return null;
  }
}

/**
 * The real path of `path`, or of its nearest existing ancestor joined with the rest.
 * `remember`: the path comes back on every call (a hidden path), so a missing one is
 * remembered as said above. Inside a sandbox worker, a path outside its roots cannot
 * even be resolved: it stays as written. `stamps`: ancestors already stamped in this
 * round of checks (most missing credential folders share one, the home folder).
 */
export function realOrAncestor(
  path: string,
  remember = false,
  stamps?: Map<string, string | null>,
): string {
  const known = remember ? missing.get(path) : undefined;
  if (known && stampOnce(known.ancestor, stamps) === known.stamp) return known.real;
  let cur = path;
  const rest: string[] = [];
  while (true) {
    try {
      const real = Deno.realPathSync(cur);
      if (!rest.length) return real;
      const resolved = join(real, ...rest.reverse());
      if (remember) rememberMissing(path, resolved, cur);
      return resolved;
    } catch (e) {
      if ((e as Error).name === "NotCapable") return path;
      if (!(e instanceof Deno.errors.NotFound)) throw e;
      const parent = dirname(cur);
      if (parent === cur) return path;
      rest.push(basename(cur));
      cur = parent;
    }
  }
}

function stampOnce(ancestor: string, stamps?: Map<string, string | null>): string | null {
  if (!stamps) return stampOf(ancestor);
  let s = stamps.get(ancestor);
  if (s === undefined) stamps.set(ancestor, s = stampOf(ancestor));
  return s;
}

function rememberMissing(path: string, real: string, ancestor: string): void {
  // Stamped after the walk: an entry created meanwhile made the ancestor recent.
  const stamp = stampOf(ancestor);
  if (stamp === null) {
    missing.delete(path);
    return;
  }
  if (missing.size >= MISSING_CAP) missing.clear();
  missing.set(path, { real, ancestor, stamp });
}
