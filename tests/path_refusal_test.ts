/** One round of path checks for a file tool (tools/paths.ts `pathRefusal`). */
import { assertEquals } from "./helpers/assert.ts";
import { hiddenPath, isInside, outsideRoots, pathRefusal } from "../tools/paths.ts";
import { readFile } from "../tools/read_file.ts";

Deno.test("pathRefusal: outside first, then hidden (through symlinks, deepest path decides); same texts as the single checks", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir());
  const ws = `${base}/ws`;
  const secret = `${base}/secret`;
  const data = `${base}/data`;
  await Deno.mkdir(`${ws}/src`, { recursive: true });
  await Deno.mkdir(secret);
  await Deno.mkdir(`${data}/DefaultProject`, { recursive: true });
  await Deno.writeTextFile(`${secret}/key`, "k");
  await Deno.mkdir(`${ws}/.ssh`);
  await Deno.symlink(secret, `${ws}/link`); // leads out of the workspace
  const hidden = [data, `${ws}/.ssh`, `${base}/missing/deeper`];

  assertEquals(pathRefusal(`${ws}/src/a.ts`, [ws], hidden), null, "usable (even missing)");
  const out = pathRefusal(`${ws}/link/key`, [ws], hidden);
  assertEquals(out?.code, "outside_workspace");
  assertEquals(out?.text, outsideRoots(`${ws}/link/key`, [ws]));
  const inner = pathRefusal(`${ws}/.ssh/id`, [ws], hidden);
  assertEquals(inner?.code, "hidden_path", "a hidden folder inside the root stays hidden");
  assertEquals(inner?.text, hiddenPath(`${ws}/.ssh/id`, hidden, [ws]));
  // A root inside a hidden folder (DefaultProject in the data folder) stays usable.
  const dp = `${data}/DefaultProject`;
  assertEquals(pathRefusal(`${dp}/notes.md`, [dp], hidden), null);
  assertEquals((pathRefusal(`${data}/reinagent.db`, [data], hidden))?.code, "hidden_path");
  assertEquals(pathRefusal(`${ws}/a`, [ws], []), null, "nothing hidden");
  await Deno.remove(base, { recursive: true });
});

Deno.test("isInside: `..` only as a whole segment; spelled-out and normalised paths agree", () => {
  // A name that merely starts with ".." is inside (it was refused as outside before).
  assertEquals(isInside("/w/..notes.txt", "/w"), true);
  assertEquals(isInside("/w/a/..b", "/w"), true);
  assertEquals(isInside("/w/..", "/w"), false);
  assertEquals(isInside("/w/../x", "/w"), false);
  assertEquals(isInside("/wx", "/w"), false);
  assertEquals(isInside("/w", "/w"), true);
  assertEquals(isInside("/w/", "/w"), true);
  assertEquals(isInside("/anything", "/"), true);
  assertEquals(isInside("/w//a/./b", "/w/"), true);
  assertEquals(isInside("/w/a/../../etc", "/w"), false);
});

Deno.test("read_file: a file whose name starts with `..` in the workspace is readable", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  await Deno.writeTextFile(`${dir}/..notes.txt`, "hi\n");
  const r = await readFile.execute({ path: "..notes.txt" }, {
    workspace: dir,
    roots: [dir],
    signal: new AbortController().signal,
  });
  assertEquals([r.isError, r.content], [false, "     1\thi"]);
  assertEquals(pathRefusal(`${dir}/..notes.txt`, [dir], []), null);
});

Deno.test("pathRefusal: a missing hidden path is remembered while its folder stays the same, and seen as soon as it appears", async () => {
  const ws = await Deno.realPath(await Deno.makeTempDir());
  await Deno.mkdir(`${ws}/real/secret`, { recursive: true });
  await Deno.writeTextFile(`${ws}/real/secret/key`, "k");
  const hidden = [`${ws}/link/secret`]; // missing: there is no `link` yet
  // Only a folder unchanged for a while is trusted (a change in the same clock tick
  // would leave its times as they were).
  await new Promise((r) => setTimeout(r, 2_100));
  const real = Deno.realPathSync;
  let calls = 0;
  Deno.realPathSync = (p) => (calls++, real(p));
  try {
    const check = () => pathRefusal(`${ws}/real/secret/key`, [ws], hidden)?.code ?? null;
    assertEquals(check(), null, "the hidden path is elsewhere");
    const first = calls;
    calls = 0;
    assertEquals(check(), null);
    assertEquals(calls < first, true, `remembered: ${calls} realpaths after ${first}`);
    // The hidden path now leads to the secret: the folder changed, so it is resolved again.
    await Deno.symlink(`${ws}/real`, `${ws}/link`);
    assertEquals(check(), "hidden_path");
    assertEquals(check(), "hidden_path", "a folder changed just now is not trusted yet");
  } finally {
    Deno.realPathSync = real;
  }
});

Deno.test("pathRefusal: missing hidden paths under one folder cost one stat of that folder per check", async () => {
  const ws = await Deno.realPath(await Deno.makeTempDir());
  const user = await Deno.realPath(await Deno.makeTempDir());
  const hidden = [".ssh", ".aws", ".kube", ".netrc", ".config/gh"].map((p) => `${user}/${p}`);
  await Deno.writeTextFile(`${ws}/a.txt`, "a");
  await new Promise((r) => setTimeout(r, 2_100)); // the folders are trusted once unchanged a while
  const stat = Deno.statSync;
  const seen: string[] = [];
  Deno.statSync = (p) => (seen.push(String(p)), stat(p));
  try {
    const check = () => pathRefusal(`${ws}/a.txt`, [ws], hidden)?.code ?? null;
    assertEquals(check(), null); // resolves and remembers the missing paths
    seen.length = 0;
    assertEquals(check(), null);
    assertEquals(seen.filter((p) => p === user).length, 1, `stats: ${seen.join(", ")}`);
    // Still seen as soon as one appears (the folder's stamp changed).
    await Deno.mkdir(`${user}/.ssh`);
    assertEquals(pathRefusal(`${user}/.ssh/id`, [ws, user], hidden)?.code, "hidden_path");
  } finally {
    Deno.statSync = stat;
    await Deno.remove(ws, { recursive: true });
    await Deno.remove(user, { recursive: true });
  }
});
