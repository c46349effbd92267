/**
 * Start-up pays for no Node compatibility module: `node:crypto` alone costs
 * 35–50 ms and +8.5 MB to import, `node:os`, `node:buffer`, `node:url`, `node:zlib`
 * 7–36 ms each. The static graphs (`deno info --json`, dynamic imports not followed) of
 * `main.ts`, of what a server start loads, and of the sandbox tool worker hold none but
 * node:sqlite (cheap); paths come from lib/path.ts. Feature code imports the others lazily.
 */
import { assertEquals } from "./helpers/assert.ts";
import { fileUrlToPath } from "../lib/file_url.ts";

const ROOT = new URL("../", import.meta.url);
const ALLOWED = new Set(["node:sqlite"]);

interface Info {
  roots: string[];
  redirects?: Record<string, string>;
  modules: {
    specifier: string;
    dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
  }[];
}

/** The `node:` modules reachable from `entry` by static imports, each with who imports it. */
async function staticNodeBuiltins(entry: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", fileUrlToPath(new URL("deno.json", ROOT)), entry],
    cwd: fileUrlToPath(ROOT),
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`deno info ${entry}: ${new TextDecoder().decode(out.stderr)}`);
  const info: Info = JSON.parse(new TextDecoder().decode(out.stdout));
  const redirect = (s: string) => info.redirects?.[s] ?? s;
  const modules = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const found: string[] = [];
  const stack = [redirect(info.roots[0])];
  while (stack.length) {
    const s = stack.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    for (const d of modules.get(s)?.dependencies ?? []) {
      if (!d.code || d.isDynamic) continue;
      const dep = redirect(d.code.specifier);
      if (dep.startsWith("node:") && !ALLOWED.has(dep)) {
        found.push(`${dep} (from ${s.replace(ROOT.href, "")})`);
      }
      stack.push(dep);
    }
  }
  return found.sort();
}

for (
  const entry of [
    "main.ts",
    // What `reinagent run` imports once main.ts picked the command.
    "server/cli/run_cmd.ts",
    // What `reinagent` / `serve` import right after claiming the data dir (main.ts).
    "server/app.ts",
    "server/window/open.ts",
    "server/window/supervisor.ts",
    // Started on the first tool call.
    "tools/sandbox/worker.ts",
  ]
) {
  Deno.test(`${entry}: no node: module at start but node:sqlite`, async () => {
    assertEquals(await staticNodeBuiltins(entry), []);
  });
}
