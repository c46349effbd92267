/**
 * What the compiled binary holds: the module graph of `main.ts` (static imports, the
 * dynamic imports with a literal specifier, text and JSON imports) plus the entry
 * points loaded by URL at run time (workers), the same list `deno compile --include`
 * gets. `copyModuleGraph` lays exactly these files out in another folder, so a test
 * can run the program with no source tree around it — the closest check of a binary
 * where the runtime base (denort) cannot be downloaded.
 */
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ENTRY = "main.ts";
/** Loaded by URL at run time, so not in the graph of ENTRY: included explicitly. */
export const INCLUDES = ["tools/sandbox/worker.ts", "tools/sandbox/image_worker.ts"];

/** The same permissions the app runs with; `--no-prompt` so a denied op never asks. */
export const COMPILE_FLAGS = [
  "--no-prompt",
  "--allow-net",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  "--allow-ffi",
  "--unstable-worker-options",
  // Half the soak's peak RSS (scripts/bench_soak.ts): V8 collects sooner.
  "--v8-flags=--optimize-for-size",
];

/** The configuration the graph is resolved with (import map, lock of npm versions). */
const CONFIG_FILES = ["deno.json", "deno.lock"];

interface InfoModule {
  specifier: string;
  kind?: string;
  error?: string;
}

async function graphOf(root: string, entry: string): Promise<InfoModule[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", join(root, "deno.json"), join(root, entry)],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`deno info ${entry} failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
  return (JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: InfoModule[] }).modules;
}

/**
 * The project's own files in the binary, relative to `root`, sorted. npm packages come
 * from Deno's cache (the binary embeds them the same way). A module that does not
 * resolve, or a local file outside the project, is an error: the binary would miss it.
 */
export async function moduleGraphFiles(root: string): Promise<string[]> {
  const files = new Set<string>(CONFIG_FILES);
  for (const entry of [ENTRY, ...INCLUDES]) {
    for (const m of await graphOf(root, entry)) {
      if (m.error) throw new Error(`${m.specifier}: ${m.error}`);
      if (!m.specifier.startsWith("file:")) continue;
      const rel = relative(root, fileURLToPath(m.specifier));
      if (rel.startsWith("..")) throw new Error(`${m.specifier} is outside ${root}`);
      files.add(rel);
    }
  }
  return [...files].sort();
}

/** Copies the files of the binary from `root` into `dest` (same relative paths). */
export async function copyModuleGraph(root: string, dest: string): Promise<string[]> {
  const files = await moduleGraphFiles(resolve(root));
  for (const rel of files) {
    await Deno.mkdir(dirname(join(dest, rel)), { recursive: true });
    await Deno.copyFile(join(root, rel), join(dest, rel));
  }
  return files;
}
