/**
 * What `deno task start` / `serve` need before the program runs, in one process: the UI
 * (scripts/build-ui.ts), then the bundled program that embeds it (scripts/build-server.ts).
 * Each step is skipped when its inputs did not change.
 *
 * Most starts change nothing, so that case is answered first and cheaply: a manifest of
 * every input's and output's size and modification time (dist/.fresh.json, written after
 * a build) is compared with one `stat` per entry. Only when it differs are the two steps
 * loaded, and they then compare their own, fuller stamps.
 *
 * Usage: deno run -A scripts/build.ts [--force]
 */
import { manifestFresh, snapshotTree } from "./build/stamp.ts";
import { SERVER_INPUTS, UI_INPUTS } from "./build/inputs.ts";

const root = new URL("../", import.meta.url);
const at = (p: string) => new URL(p, root).pathname;

/** Where the quick check's manifest lives (beside the outputs, never committed). */
export const FRESH_MANIFEST = at("dist/.fresh.json");

/** Inputs of both steps, their outputs, and this script: a change to any means "look closer". */
function manifestNow() {
  return snapshotTree(
    root,
    [...new Set([...UI_INPUTS.dirs, ...SERVER_INPUTS.dirs, "dist/server"])],
    [...new Set([...UI_INPUTS.files, ...SERVER_INPUTS.files, "scripts/build.ts"])],
  );
}

/** Brings ui/dist and dist/server up to date; the lines to print. */
export async function ensureBuilt(opts: { force?: boolean } = {}): Promise<string[]> {
  const t0 = performance.now();
  if (!opts.force && manifestFresh(root, FRESH_MANIFEST)) {
    return [`build up to date (checked in ${Math.round(performance.now() - t0)} ms)`];
  }
  // Specifiers built at run time: Deno loads a literal dynamic import's whole graph (the
  // bundler's helpers) at start, even on the path that never runs it.
  const load = (name: string) => import(new URL(name, import.meta.url).href);
  const [{ ensureUi }, { ensureServer }] = await Promise.all([
    load("./build-ui.ts") as Promise<typeof import("./build-ui.ts")>,
    load("./build-server.ts") as Promise<typeof import("./build-server.ts")>,
  ]);
  const lines = [await ensureUi(opts), await ensureServer(opts)];
  // Written only after both steps succeeded: a failed build leaves the check failing.
  await Deno.mkdir(at("dist"), { recursive: true });
  await Deno.writeTextFile(FRESH_MANIFEST, JSON.stringify(manifestNow()));
  return lines;
}

if (import.meta.main) {
  for (const line of await ensureBuilt({ force: Deno.args.includes("--force") })) {
    console.log(line);
  }
}
