/**
 * Imports point one way: `ui → protocol ← server → agent → tools → store`, `lib/` at the
 * bottom. The agent (loop, provider adapters, tool runner) never reaches into the server,
 * and the server reaches the agent through its one entry, agent/index.ts.
 */
import { assertEquals } from "./helpers/assert.ts";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SPEC =
  /^\s*(import|export)(\s+type)?[^"';]*?from\s*["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\)/gm;

function sources(dir: string, out: string[] = []): string[] {
  for (const e of Deno.readDirSync(join(ROOT, dir))) {
    const p = join(dir, e.name);
    if (e.isDirectory) {
      if (e.name !== "dist" && e.name !== "node_modules") sources(p, out);
    } else if (/\.(ts|js)$/.test(e.name)) out.push(p);
  }
  return out;
}

/** Each relative import of the folder's files: who, what, and whether only types. */
function importsOf(dir: string): { from: string; to: string; typeOnly: boolean }[] {
  const out: { from: string; to: string; typeOnly: boolean }[] = [];
  for (const file of sources(dir)) {
    const src = Deno.readTextFileSync(join(ROOT, file));
    for (const m of src.matchAll(SPEC)) {
      const spec = m[3] ?? m[4];
      const to = relative(ROOT, normalize(join(ROOT, dirname(file), spec)));
      out.push({ from: file, to, typeOnly: !!m[2] });
    }
  }
  return out;
}

const top = (path: string) => path.split("/")[0];

function breaches(
  dir: string,
  allowed: (to: string, typeOnly: boolean) => boolean,
): string[] {
  return importsOf(dir).filter((i) => !allowed(i.to, i.typeOnly)).map((i) =>
    `${i.from} -> ${i.to}`
  );
}

Deno.test("the agent imports protocol, tools, lib and store types only, never the server", () => {
  assertEquals(
    breaches("agent", (to, typeOnly) =>
      ["agent", "protocol", "tools", "lib"].includes(top(to)) ||
      (top(to) === "store" && typeOnly)),
    [],
  );
});

Deno.test("the server reaches the agent only through agent/index.ts", () => {
  assertEquals(
    breaches("server", (to) => top(to) !== "agent" || to === "agent/index.ts"),
    [],
  );
});

Deno.test("tools, store, protocol and lib never import the layers above them", () => {
  const below: Record<string, string[]> = {
    tools: ["tools", "protocol", "store", "lib"],
    store: ["store", "protocol", "lib"],
    protocol: ["protocol"],
    lib: ["lib"],
  };
  for (const [dir, ok] of Object.entries(below)) {
    assertEquals(breaches(dir, (to) => ok.includes(top(to))), [], dir);
  }
});

Deno.test("the UI imports only protocol/ besides itself", () => {
  assertEquals(breaches("ui", (to) => ["ui", "protocol"].includes(top(to))), []);
});
