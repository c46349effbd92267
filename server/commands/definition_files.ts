/**
 * Markdown definition files the user brings (custom commands, sub-agent types): the
 * folders searched for a workspace, highest precedence first — the project's
 * `.reinagent/<kind>` and `.claude/<kind>`, the data folder's `<kind>`, `~/.claude/<kind>` —
 * and the `*.md` files of one folder, read with the problems found (links leading out of
 * the workspace, too large, not UTF-8) instead of being silently skipped.
 */
import { join } from "../../lib/path.ts";
import { outsideRoots } from "../../tools/paths.ts";

export interface DefinitionDir {
  dir: string;
  source: "workspace" | "user";
  /** Files must stay inside this folder after resolving links (workspace folders). */
  confine?: string;
}

export interface DefinitionProblem {
  path: string;
  message: string;
}

/** The folders of `kind` for a workspace, highest precedence first. */
export function definitionDirs(
  kind: "commands" | "agents",
  workspace: string,
  dataHome: string,
  userHome: string | undefined = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE"),
): DefinitionDir[] {
  const dirs: DefinitionDir[] = [
    { dir: join(workspace, ".reinagent", kind), source: "workspace", confine: workspace },
    { dir: join(workspace, ".claude", kind), source: "workspace", confine: workspace },
    { dir: join(dataHome, kind), source: "user" },
  ];
  if (userHome) dirs.push({ dir: join(userHome, ".claude", kind), source: "user" });
  // The same folder reached twice (a workspace in the home folder) is read once.
  return dirs.filter((d, i) => dirs.findIndex((x) => x.dir === d.dir) === i);
}

/** The `*.md` files of one folder (sorted, at most `limits.files`), with the problems of reading it. */
export async function readDefinitionFiles(
  d: DefinitionDir,
  problems: DefinitionProblem[],
  limits: { files: number; bytes: number; what: string },
): Promise<{ path: string; text: string }[]> {
  let names: string[] = [];
  try {
    for (const e of Deno.readDirSync(d.dir)) {
      if (/\.md$/i.test(e.name) && !e.isDirectory) names.push(e.name);
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) {
      problems.push({ path: d.dir, message: `cannot read the folder: ${(e as Error).message}` });
    }
    return [];
  }
  names.sort();
  if (names.length > limits.files) {
    problems.push({
      path: d.dir,
      message: `${names.length} ${limits.what}; only the first ${limits.files} are read`,
    });
    names = names.slice(0, limits.files);
  }
  const out: { path: string; text: string }[] = [];
  for (const name of names) {
    const path = join(d.dir, name);
    const bad = (message: string) => problems.push({ path, message });
    try {
      if (d.confine && outsideRoots(path, [d.confine])) {
        bad("it links to a file outside the workspace, which is not read");
        continue;
      }
      const st = Deno.statSync(path);
      if (!st.isFile) continue;
      if (st.size > limits.bytes) {
        bad(`${Math.ceil(st.size / 1024)} KB is larger than ${limits.bytes / 1024} KB`);
        continue;
      }
      // Asynchronous: the workspace's files are the model's to write (see readAgentsFile).
      const bytes = await Deno.readFile(path);
      out.push({ path, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) });
    } catch (e) {
      bad(
        e instanceof TypeError ? "it is not UTF-8 text" : `cannot read it: ${(e as Error).message}`,
      );
    }
  }
  return out;
}
