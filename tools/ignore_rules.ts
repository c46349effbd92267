/**
 * What the search tools leave out, as ripgrep does: `.gitignore` and `.ignore` files in the
 * searched folders and in their parents up to the root the search is confined to (the
 * workspace), `.git/info/exclude` of that root, and the user's global git excludes (read by
 * the main process, see ignore_global.ts, because the sandbox worker cannot see the home
 * folder). A deeper folder's file decides before its parents'; in one folder `.ignore` decides
 * before `.gitignore`; a negated pattern (`!keep.log`) brings a path back. The rules apply
 * whether or not the folder is a git repository, so a search sees what the user's editor and
 * `git status` show.
 *
 * @example
 * ```ts
 * const rules = new IgnoreRules("/repo", ["*.log"]);
 * const chain = rules.chainOf("/repo/src", names);     // names read from /repo/src
 * rules.ignored(chain, "/repo/src/debug.log", false);  // true
 * ```
 */
import { type GitIgnore, gitIgnore } from "./gitignore.ts";

/** The ignore files read in each folder, the one that decides first first. */
export const IGNORE_FILES = [".ignore", ".gitignore"] as const;

/** One folder's rules: paths are tested relative to `dir` (absolute, ending in `/`). */
interface Level {
  dir: string;
  rules: GitIgnore;
}

/** The rules that apply inside one folder, the deepest first. */
export type Chain = readonly Level[];

export class IgnoreRules {
  readonly top: string;
  private base: Level[] = [];

  /**
   * `top` is the folder the search is confined to (its files and `.git/info/exclude` are
   * read, nothing above it); `global` the lines of the user's global excludes file.
   */
  constructor(top: string, global: readonly string[] = []) {
    this.top = top.endsWith("/") ? top : top + "/";
    const exclude = readText(`${this.top}.git/info/exclude`);
    if (exclude) this.base.push({ dir: this.top, rules: gitIgnore(exclude) });
    if (global.length) this.base.push({ dir: this.top, rules: gitIgnore(global.join("\n")) });
  }

  /**
   * The chain of a walk's root: its parents' files from `top` down, then its own. A root
   * that those rules ignore was asked for by name (`path: "build"`): inside it only its own
   * files' rules apply, as ripgrep searches a path given explicitly.
   */
  rootChain(root: string): Chain {
    const dir = root.endsWith("/") ? root : root + "/";
    if (!dir.startsWith(this.top)) return this.chainOf(dir, [], null);
    let chain: Chain = this.base;
    let at = this.top;
    const rest = dir.slice(this.top.length).split("/").filter(Boolean);
    for (let i = 0; i <= rest.length; i++) {
      if (i > 0) {
        if (this.ignored(chain, at + rest[i - 1], true)) return this.chainOf(dir, null, []);
        at += rest[i - 1] + "/";
      }
      chain = this.chainOf(at, null, chain);
    }
    return chain;
  }

  /**
   * The chain inside folder `dir` given its parent's: `names` are the folder's entries when
   * the caller has listed it (null: look for the files).
   */
  chainOf(dir: string, names: readonly string[] | null, parent: Chain | null): Chain {
    const at = dir.endsWith("/") ? dir : dir + "/";
    const own: Level[] = [];
    for (const file of IGNORE_FILES) {
      if (names && !names.includes(file)) continue;
      const text = readText(at + file);
      if (text) own.push({ dir: at, rules: gitIgnore(text) });
    }
    const up = parent ?? this.base;
    return own.length ? [...own, ...up] : up;
  }

  /** Whether `abs` (a path inside the chain's folder) is left out. */
  ignored(chain: Chain, abs: string, isDir: boolean): boolean {
    for (const level of chain) {
      if (!abs.startsWith(level.dir)) continue;
      const r = level.rules.test(abs.slice(level.dir.length), isDir);
      if (r !== null) return r;
    }
    return false;
  }
}

function readText(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return ""; // missing or unreadable: no rules
  }
}
