/**
 * Path helpers with `node:path` semantics, without loading `node:path` (that
 * import boots Deno's Node compat internals, ~11–24 ms and ~4–5 MB per isolate, paid in
 * the main isolate and again in each sandbox tool worker).
 *
 * On Linux and macOS these are our own POSIX implementations, identical in result to
 * `node:path`'s `posix` (tests/lib_path_test.ts compares them on thousands of inputs,
 * quirks included). On Windows the module re-exports `node:path` itself, so drive
 * letters, UNC paths and `\` keep node's win32 rules; only there is it loaded.
 *
 * A leaf module: imports nothing of the project (usable by store/, tools/, server/, main.ts).
 */

const SLASH = "/";

function mustBeString(value: unknown, name: string): asserts value is string {
  // node throws a TypeError here too; silently joining "undefined" would hide a bug.
  if (typeof value !== "string") {
    throw new TypeError(`The "${name}" argument must be of type string. Received ${typeof value}`);
  }
}

/**
 * Folds "." and ".." in a path's segments; empty segments (repeated slashes) vanish.
 * A relative path keeps the ".." that climb above its start; an absolute one drops them.
 */
function foldSegments(path: string, keepLeadingDotDot: boolean): string {
  const out: string[] = [];
  for (const segment of path.split(SLASH)) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") out.push(segment);
    else if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else if (keepLeadingDotDot) out.push("..");
  }
  return out.join(SLASH);
}

function posixNormalize(path: string): string {
  mustBeString(path, "path");
  if (path === "") return ".";
  const absolute = path.startsWith(SLASH);
  const trailingSlash = path.endsWith(SLASH);
  const folded = foldSegments(path, !absolute);
  if (absolute) return SLASH + folded + (folded !== "" && trailingSlash ? SLASH : "");
  if (folded === "") return trailingSlash ? "./" : ".";
  return trailingSlash ? folded + SLASH : folded;
}

function posixJoin(...paths: string[]): string {
  paths.forEach((p, i) => mustBeString(p, `paths[${i}]`));
  const parts = paths.filter((p) => p !== "");
  return parts.length === 0 ? "." : posixNormalize(parts.join(SLASH));
}

function posixIsAbsolute(path: string): boolean {
  mustBeString(path, "path");
  return path.startsWith(SLASH);
}

/** Right to left until a path is absolute; the working directory only if none is. */
function posixResolve(...paths: string[]): string {
  let resolved = "";
  let absolute = false;
  for (let i = paths.length - 1; i >= -1 && !absolute; i--) {
    const path = i >= 0 ? paths[i] : Deno.cwd();
    mustBeString(path, `paths[${i}]`);
    if (path === "") continue;
    resolved = resolved === "" ? path : `${path}/${resolved}`;
    absolute = path.startsWith(SLASH);
  }
  const folded = foldSegments(resolved, !absolute);
  if (absolute) return SLASH + folded;
  return folded === "" ? "." : folded;
}

/** Index just past the last character that is not a slash (0 if there is none). */
function endOfLastName(path: string): number {
  let end = path.length;
  while (end > 0 && path[end - 1] === SLASH) end--;
  return end;
}

function posixDirname(path: string): string {
  mustBeString(path, "path");
  if (path === "") return ".";
  // A name's trailing slashes do not count, but the first character is never dropped.
  const end = Math.max(endOfLastName(path), 1);
  const slash = path.lastIndexOf(SLASH, end - 1);
  if (slash === -1) return ".";
  if (slash === 0) return SLASH;
  // node's quirk: "//a" keeps both leading slashes ("///a" does too, by plain slicing).
  if (slash === 1 && path[0] === SLASH) return "//";
  return path.slice(0, slash);
}

function posixBasename(path: string, suffix?: string): string {
  mustBeString(path, "path");
  if (suffix !== undefined) mustBeString(suffix, "ext");
  const end = endOfLastName(path);
  const start = end === 0 ? 0 : path.lastIndexOf(SLASH, end - 1) + 1;
  const name = path.slice(start, end);
  if (suffix === undefined || suffix === "" || suffix.length > path.length) return name;
  // node's suffix rules, quirks included: a suffix equal to the whole argument leaves "",
  // one equal to the whole name leaves the name, and one that the name only ends (the
  // suffix is longer) returns the name with its trailing slashes.
  if (suffix === path) return "";
  if (name.endsWith(suffix)) return name === suffix ? name : name.slice(0, -suffix.length);
  if (suffix.endsWith(name)) return path.slice(start);
  return name;
}

function posixExtname(path: string): string {
  mustBeString(path, "path");
  const name = posixBasename(path);
  const dot = name.lastIndexOf(".");
  // ".bashrc" has no extension, nor do "." and "..".
  if (dot <= 0 || name === "..") return "";
  return name.slice(dot);
}

/** The path from `from` to `to`, both resolved first; "" when they are the same. */
function posixRelative(from: string, to: string): string {
  mustBeString(from, "from");
  mustBeString(to, "to");
  const fromParts = posixResolve(from).split(SLASH).filter((s) => s !== "");
  const toParts = posixResolve(to).split(SLASH).filter((s) => s !== "");
  let common = 0;
  while (
    common < fromParts.length && common < toParts.length &&
    fromParts[common] === toParts[common]
  ) common++;
  const up = fromParts.slice(common).map(() => "..");
  return [...up, ...toParts.slice(common)].join(SLASH);
}

// Windows only: node's own win32 rules. Elsewhere node:path is never loaded (a dynamic
// import not taken costs nothing: measured equal RSS and time for `main.ts --version`).
const win = Deno.build.os === "windows" ? await import("node:path") : undefined;

export const sep: string = win ? win.sep : SLASH;
export const normalize: (path: string) => string = win ? win.normalize : posixNormalize;
export const join: (...paths: string[]) => string = win ? win.join : posixJoin;
export const resolve: (...paths: string[]) => string = win ? win.resolve : posixResolve;
export const isAbsolute: (path: string) => boolean = win ? win.isAbsolute : posixIsAbsolute;
export const dirname: (path: string) => string = win ? win.dirname : posixDirname;
export const basename: (path: string, suffix?: string) => string = win
  ? win.basename
  : posixBasename;
export const extname: (path: string) => string = win ? win.extname : posixExtname;
export const relative: (from: string, to: string) => string = win ? win.relative : posixRelative;
