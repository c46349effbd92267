/**
 * The user's global git excludes, read in the main process for the search tools (their
 * sandbox worker may read only the task's folders): the file `core.excludesFile` names in
 * the user's git config, or git's default `$XDG_CONFIG_HOME/git/ignore`
 * (`~/.config/git/ignore`).
 */
import { homeDir } from "../lib/home_dir.ts";

/** The tools that honour ignore files, and so need the global excludes passed in. */
export const IGNORE_AWARE_TOOLS: ReadonlySet<string> = new Set(["grep", "glob", "list_dir"]);

/** How long a read of the excludes is reused: a search tool may run at every step. */
const FRESH_MS = 2000;
let cached: { key: string; at: number; lines: Promise<string[]> } | null = null;

/** {@link readGlobalExcludes}, read again at most every two seconds. */
export function globalExcludes(env = Deno.env.toObject()): Promise<string[]> {
  const key = `${env.HOME}\0${env.XDG_CONFIG_HOME}`;
  const now = performance.now();
  if (cached?.key === key && now - cached.at < FRESH_MS) return cached.lines;
  cached = { key, at: now, lines: readGlobalExcludes(env) };
  return cached.lines;
}

/** The lines of the global excludes file; none when there is no such file. */
export async function readGlobalExcludes(env: Record<string, string>): Promise<string[]> {
  const home = env.HOME ?? homeDir();
  const xdg = env.XDG_CONFIG_HOME || `${home}/.config`;
  let file = `${xdg}/git/ignore`;
  // Later files win, as git reads them: the XDG config, then ~/.gitconfig.
  for (const config of [`${xdg}/git/config`, `${home}/.gitconfig`]) {
    const named = excludesFileIn(await readOr(config));
    if (named) file = named.replace(/^~(?=\/|$)/, home);
  }
  const text = await readOr(file);
  return text ? text.split(/\r?\n/) : [];
}

/** `core.excludesFile` of one git config file's text, if it sets it. */
export function excludesFileIn(config: string): string | null {
  let section = "";
  let found: string | null = null;
  for (const raw of config.split(/\r?\n/)) {
    const line = raw.trim();
    const head = /^\[\s*([^\]\s"]+)[^\]]*\]/.exec(line);
    if (head) {
      section = head[1].toLowerCase();
      continue;
    }
    if (section !== "core") continue;
    const kv = /^excludesfile\s*=\s*(.*)$/i.exec(line);
    if (!kv) continue;
    let value = kv[1];
    const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(value);
    value = quoted ? quoted[1].replace(/\\(.)/g, "$1") : value.replace(/\s*[#;].*$/, "").trim();
    if (value) found = value;
  }
  return found;
}

async function readOr(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return ""; // missing or unreadable: nothing set
  }
}
