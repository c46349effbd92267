/**
 * Start-up stays light: the modules `main.ts` loads before it does anything
 * (static imports, followed through the project) reach no heavy npm package. The MCP
 * SDK (+ zod, ~20 MB), Playwright, `node:process` and the QR code library load only when
 * their path runs (the OpenAI SDK is not used at all).
 */
import { assertEquals } from "./helpers/assert.ts";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
/** `import … from "x"` / `export … from "x"` / `import "x"`, not `import type` nor `import(`. */
const STATIC = /^\s*(?:import|export)\s+(?!type\b)(?:[^"'();]*?\s+from\s+)?["']([^"']+)["']/gm;
/**
 * `node:process` boots Node's process object (console, streams: tens of ms) and
 * `qrcode-generator` is only for Settings → Remote access / `serve --host`.
 */
const HEAVY = [
  "@modelcontextprotocol/sdk",
  "openai",
  "playwright-core",
  "zod",
  "node:process",
  "qrcode-generator",
];

function staticGraph(entry: string): { files: Set<string>; bare: Set<string> } {
  const files = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const src = Deno.readTextFileSync(file);
    for (const m of src.matchAll(STATIC)) {
      const spec = m[1];
      if (spec.startsWith(".")) {
        const next = normalize(join(dirname(file), spec));
        if (/\.(ts|js)$/.test(next)) visit(next);
      } else bare.add(spec.replace(/^npm:/, ""));
    }
  };
  visit(join(ROOT, entry));
  return { files, bare };
}

/** What `reinagent` loads before it does anything, and what `run` and `serve` then load. */
const ENTRIES = ["main.ts", "server/cli/run_cmd.ts", "server/app.ts"];

Deno.test("main.ts, `run` and `serve` load no heavy npm package before it is needed", () => {
  for (const entry of ENTRIES) {
    const { files, bare } = staticGraph(entry);
    const heavy = [...bare].filter((b) => HEAVY.some((h) => b === h || b.startsWith(`${h}/`)));
    assertEquals(heavy, [], `statically imported from ${entry} (${files.size} modules)`);
  }
});

Deno.test("`run` and `serve` load no feature op handlers before their first call (server/ops/dispatch.ts)", () => {
  const lazy = ["notes_ops", "carry_ops", "plugin_ops", "update_ops", "git_ops", "terminal_ops"];
  for (const entry of ENTRIES) {
    const { files } = staticGraph(entry);
    const loaded = lazy.filter((m) => files.has(join(ROOT, `server/ops/${m}.ts`)));
    assertEquals(loaded, [], `statically imported from ${entry}`);
  }
});

Deno.test("main.ts loads only the argument parsers before it picks a command (`--version` stays instant)", () => {
  const { files } = staticGraph("main.ts");
  const heavy = ["server/services.ts", "server/app.ts", "server/sessions/runs.ts", "store/store.ts"]
    .filter((m) => files.has(join(ROOT, m)));
  assertEquals(heavy, [], `statically imported from main.ts (${files.size} modules)`);
});
