/**
 * Bundles the Preact UI into `ui/dist/app.js` and concatenates `ui/styles/*.css` into
 * `ui/dist/app.css`. The terminal's xterm.js (with its CSS) is a second bundle,
 * `ui/dist/terminal.js`, that the UI imports only when a terminal is first shown. The
 * server imports all three as text, so they travel inside the module
 * graph (and the compiled binary) and nothing is read from the source tree at run time.
 *
 * A build is skipped when nothing it reads changed since the last one (a stamp of the
 * sources' paths, sizes and modification times in `ui/dist/.stamp`): `deno task start`
 * then costs a directory listing, not a bundle (~200 ms and more on a busy machine).
 *
 * Usage: deno run -A scripts/build-ui.ts [--watch] [--no-minify] [--force]
 */

import { stampMatches, treeStamp } from "./build/stamp.ts";
import { UI_INPUTS } from "./build/inputs.ts";

const root = new URL("../", import.meta.url);
const at = (p: string) => new URL(p, root).pathname;

async function bundleJs(minify: boolean, entry: string, output: string): Promise<void> {
  const args = ["bundle", "--quiet", "--platform", "browser", "-o", at(output)];
  if (minify) args.push("--minify");
  args.push(at(entry));
  const out = await new Deno.Command(Deno.execPath(), { args, stderr: "piped", stdout: "piped" })
    .output();
  if (!out.success) {
    throw new Error(`deno bundle failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
}

async function concatCss(): Promise<void> {
  const names: string[] = [];
  for await (const e of Deno.readDir(at("ui/styles"))) {
    if (e.isFile && e.name.endsWith(".css")) names.push(e.name);
  }
  names.sort(); // files are numbered (00-tokens.css, 10-layout.css, …) to fix the order
  const parts = await Promise.all(
    names.map(async (n) => `/* ${n} */\n${await Deno.readTextFile(at(`ui/styles/${n}`))}`),
  );
  await Deno.writeTextFile(at("ui/dist/app.css"), parts.join("\n"));
}

export async function buildUi(minify = true): Promise<{ jsBytes: number; cssBytes: number }> {
  await Deno.mkdir(at("ui/dist"), { recursive: true });
  await Promise.all([
    bundleJs(minify, "ui/main.js", "ui/dist/app.js"),
    bundleJs(minify, "ui/terminal_entry.js", "ui/dist/terminal.js"),
    concatCss(),
  ]);
  const [js, css] = await Promise.all([
    Deno.stat(at("ui/dist/app.js")),
    Deno.stat(at("ui/dist/app.css")),
  ]);
  return { jsBytes: js.size, cssBytes: css.size };
}

/** Every file the bundle reads: the UI sources, the protocol it imports, the import map. */
const sourceStamp = (minify: boolean) =>
  treeStamp(root, UI_INPUTS.dirs, UI_INPUTS.files, UI_INPUTS.skip, [`minify=${minify}`]);

/** The last build's stamp matches and its outputs exist. */
export const uiUpToDate = (stamp: string) =>
  stampMatches(
    at("ui/dist/.stamp"),
    stamp,
    ["app.js", "app.css", "terminal.js"].map((f) => at(`ui/dist/${f}`)),
  );

/** Builds the UI unless it is up to date; the line to print. */
export async function ensureUi(opts: { minify?: boolean; force?: boolean } = {}): Promise<string> {
  const minify = opts.minify ?? true;
  const t0 = performance.now();
  const stamp = await sourceStamp(minify);
  if (!opts.force && await uiUpToDate(stamp)) {
    return `ui up to date (checked in ${Math.round(performance.now() - t0)} ms)`;
  }
  const r = await buildUi(minify);
  // Written after the build: a failed build leaves no stamp, so the next run builds again.
  await Deno.writeTextFile(at("ui/dist/.stamp"), stamp);
  return `ui built in ${Math.round(performance.now() - t0)} ms: app.js ${
    (r.jsBytes / 1024).toFixed(1)
  } KB, app.css ${(r.cssBytes / 1024).toFixed(1)} KB`;
}

if (import.meta.main) {
  const minify = !Deno.args.includes("--no-minify");
  const watch = Deno.args.includes("--watch");
  console.log(await ensureUi({ minify, force: watch || Deno.args.includes("--force") }));
  if (Deno.args.includes("--watch")) {
    console.log("watching ui/ for changes…");
    let timer: ReturnType<typeof setTimeout> | undefined;
    for await (const ev of Deno.watchFs(at("ui"))) {
      if (ev.paths.every((p) => p.includes("/ui/dist/"))) continue;
      clearTimeout(timer);
      timer = setTimeout(() => {
        buildUi(minify).then(
          (b) => console.log(`rebuilt: app.js ${(b.jsBytes / 1024).toFixed(1)} KB`),
          (e) => console.error(String(e)),
        );
      }, 80);
    }
  }
}
