/**
 * The quick up-to-date check of `deno task start` (scripts/build/stamp.ts): a manifest of
 * sizes and modification times notices an edited, an added and a removed input without
 * listing a folder. Times are set to a fixed past moment first, so an edit made within the
 * same millisecond as the snapshot still shows.
 */
import { assert } from "./helpers/assert.ts";
import { manifestFresh, snapshotTree } from "../scripts/build/stamp.ts";

Deno.test("the build manifest notices edited, added and removed inputs", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ra-manifest-" });
  const root = new URL(`file://${dir}/`);
  const past = new Date("2020-01-01T00:00:00Z");
  Deno.mkdirSync(`${dir}/src/sub`, { recursive: true });
  Deno.writeTextFileSync(`${dir}/src/a.ts`, "a");
  Deno.writeTextFileSync(`${dir}/src/sub/b.ts`, "b");
  Deno.writeTextFileSync(`${dir}/main.ts`, "m");
  for (const p of ["src/a.ts", "src/sub/b.ts", "main.ts", "src/sub", "src"]) {
    Deno.utimeSync(`${dir}/${p}`, past, past);
  }
  const manifest = `${dir}/fresh.json`;
  const snap = () =>
    Deno.writeTextFileSync(manifest, JSON.stringify(snapshotTree(root, ["src"], ["main.ts"])));

  assert(!manifestFresh(root, manifest), "no manifest yet: not fresh");
  snap();
  assert(manifestFresh(root, manifest), "unchanged: fresh");

  Deno.writeTextFileSync(`${dir}/src/sub/b.ts`, "bb");
  assert(!manifestFresh(root, manifest), "an edited file");
  snap();
  Deno.writeTextFileSync(`${dir}/src/sub/c.ts`, "c");
  assert(!manifestFresh(root, manifest), "an added file");
  Deno.utimeSync(`${dir}/src/sub`, past, past);
  snap();
  Deno.removeSync(`${dir}/src/a.ts`);
  assert(!manifestFresh(root, manifest), "a removed file");
  snap();
  Deno.removeSync(`${dir}/main.ts`);
  assert(!manifestFresh(root, manifest), "a removed top-level file");
  Deno.writeTextFileSync(manifest, "{not json");
  assert(!manifestFresh(root, manifest), "a damaged manifest");
  await Deno.remove(dir, { recursive: true });
});
