/**
 * Bundles the program (`main.ts` and everything it imports, npm packages included) into
 * `dist/server/`: `main.js` with one chunk per lazily imported part, `worker.js`, the
 * file tools' sandbox worker, and `image_worker.js`, the image resizer, each one file of
 * its own. `deno task start` / `serve` and the
 * benchmarks run this build: a handful of files load much faster than ~240 modules of
 * source (docs/BENCHMARKS.md has the numbers).
 * The UI (ui/dist, built first) travels inside it as text, as in the source tree.
 *
 * Skipped when nothing it reads changed since the last build (a stamp in
 * `dist/server/.stamp`). A build is made in a fresh folder and swapped in whole, so a
 * failed one leaves the previous build as it was.
 *
 * Usage: deno run -A scripts/build-server.ts [--force] [--out DIR]
 */
import { stampMatches, treeStamp } from "./build/stamp.ts";
import { SERVER_INPUTS } from "./build/inputs.ts";
import { deferChunkImports } from "./build/lazy_chunks.ts";
import { COMPILE_FLAGS } from "./compile/graph.ts";

const root = new URL("../", import.meta.url);
const at = (p: string) => new URL(p, root).pathname;

/** Where `deno task start` runs the program from. */
export const SERVER_DIR = at("dist/server");
export const SERVER_ENTRY = `${SERVER_DIR}/main.js`;

/**
 * How the bundle is run (`deno task start` / `serve` in deno.json, the benchmarks, the
 * bundle's tests): with the compiled binary's permissions and flags, and `--no-config`,
 * since the bundle holds its npm packages and resolves nothing through the import map
 * (reading deno.json and its lock cost ~2 ms of every start).
 */
export const BUNDLE_RUN_FLAGS = ["run", "--no-config", ...COMPILE_FLAGS];

/** What the bundle reads (scripts/build/inputs.ts). */
const inputsStamp = () => treeStamp(root, SERVER_INPUTS.dirs.filter(exists), SERVER_INPUTS.files);

function exists(rel: string): boolean {
  try {
    Deno.statSync(at(rel));
    return true;
  } catch {
    return false;
  }
}

async function bundle(args: string[]): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--platform", "deno", "--config", at("deno.json"), ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`deno bundle failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
}

/** Bundles into `outDir` (replaced whole once both bundles are made). */
export async function buildServer(outDir = SERVER_DIR): Promise<void> {
  const tmp = `${outDir}.tmp-${Deno.pid}`;
  await Deno.remove(tmp, { recursive: true }).catch(() => {});
  try {
    await Promise.all([
      bundle(["--code-splitting", "--outdir", tmp, at("main.ts")]),
      bundle(["-o", `${tmp}/worker.js`, at("tools/sandbox/worker.ts")]),
      bundle(["-o", `${tmp}/image_worker.js`, at("tools/sandbox/image_worker.ts")]),
    ]);
    await deferChunkImports(tmp);
    await Deno.remove(outDir, { recursive: true }).catch(() => {});
    await Deno.rename(tmp, outDir);
  } catch (e) {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    throw e;
  }
}

/** Builds `dist/server` unless it is up to date; the line to print. */
export async function ensureServer(opts: { force?: boolean; outDir?: string } = {}) {
  const outDir = opts.outDir ?? SERVER_DIR;
  const t0 = performance.now();
  const stamp = await inputsStamp();
  const outputs = [`${outDir}/main.js`, `${outDir}/worker.js`, `${outDir}/image_worker.js`];
  if (!opts.force && await stampMatches(`${outDir}/.stamp`, stamp, outputs)) {
    return `server up to date (checked in ${Math.round(performance.now() - t0)} ms)`;
  }
  await buildServer(outDir);
  await Deno.writeTextFile(`${outDir}/.stamp`, stamp);
  return `server built in ${Math.round(performance.now() - t0)} ms into ${outDir}`;
}

if (import.meta.main) {
  const i = Deno.args.indexOf("--out");
  const outDir = i >= 0 ? Deno.args[i + 1] : undefined;
  console.log(await ensureServer({ force: Deno.args.includes("--force"), outDir }));
}
