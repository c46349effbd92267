/**
 * What `deno task start` / `serve` need before the program runs, in one process: the UI
 * (scripts/build-ui.ts), then the bundled program that embeds it (scripts/build-server.ts).
 * Each step is skipped when its inputs did not change.
 *
 * Usage: deno run -A scripts/build.ts [--force]
 */
import { ensureUi } from "./build-ui.ts";
import { ensureServer } from "./build-server.ts";

if (import.meta.main) {
  const force = Deno.args.includes("--force");
  console.log(await ensureUi({ force }));
  console.log(await ensureServer({ force }));
}
