/**
 * grep, glob and list_dir see what the user sees: .gitignore (nested too), .ignore,
 * .git/info/exclude and the global git excludes leave files out, `include_ignored` brings
 * them back; the global excludes reach the sandbox worker from the main process.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { glob } from "../tools/glob.ts";
import { grep } from "../tools/grep.ts";
import { listDir } from "../tools/list_dir.ts";
import { excludesFileIn, readGlobalExcludes } from "../tools/ignore_global.ts";
import { SandboxPool } from "../tools/sandbox/pool.ts";
import { gitIgnore } from "../tools/gitignore.ts";

const FILES: Record<string, string> = {
  ".gitignore": "node_modules/\n.venv/\nbuild/\n*.tmp\n",
  ".ignore": "notes.txt\n",
  ".git/info/exclude": "local.txt\n",
  "app.ts": "needle app\n",
  "notes.txt": "needle notes\n",
  "local.txt": "needle local\n",
  "scratch.tmp": "needle tmp\n",
  "debug.log": "needle log\n",
  "node_modules/pkg/index.js": "needle pkg\n",
  ".venv/lib/site.py": "needle venv\n",
  "build/out.js": "needle build\n",
  "src/.gitignore": "*.gen.ts\n!keep.gen.ts\n",
  "src/a.gen.ts": "needle gen\n",
  "src/keep.gen.ts": "needle keep\n",
  "src/sub/b.gen.ts": "needle gen deeper\n",
  "src/sub/.ignore": "!b.gen.ts\n",
};

async function workspace(): Promise<string> {
  const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-ignore-" }));
  for (const [rel, text] of Object.entries(FILES)) {
    const at = `${ws}/${rel}`;
    await Deno.mkdir(at.slice(0, at.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(at, text);
  }
  return ws;
}

const signal = new AbortController().signal;
const lines = (text: string) => text.split("\n").filter((l) => l && !l.startsWith("(")).sort();

Deno.test("search skips ignored node_modules/, .venv/, build/ and finds them when asked", async () => {
  const ws = await workspace();
  const ctx = { workspace: ws, roots: [ws], signal, ignoreGlobal: ["*.log", ""] };
  try {
    const shown = [
      ".gitignore",
      ".ignore",
      "app.ts",
      "src/.gitignore",
      "src/keep.gen.ts",
      "src/sub/.ignore",
      "src/sub/b.gen.ts",
    ];
    const g = await glob.execute({ pattern: "**/*" }, ctx);
    assertEquals(lines(g.content), shown);
    const all = await glob.execute({ pattern: "**/*", include_ignored: true }, ctx);
    const found = lines(all.content);
    for (const f of ["node_modules/pkg/index.js", ".venv/lib/site.py", "build/out.js"]) {
      assert(found.includes(f), `${f} with include_ignored: ${found}`);
    }
    assert(!found.some((f) => f.startsWith(".git/")), "never .git");
    assertEquals(found.length, Object.keys(FILES).length - 1);

    const r = await grep.execute({ pattern: "needle" }, ctx);
    assertEquals(
      r.content.split("\n").filter((l) => /^\S+:\d+:/.test(l)).map((l) => l.split(":")[0]).sort(),
      ["app.ts", "src/keep.gen.ts", "src/sub/b.gen.ts"],
    );
    const every = await grep.execute({ pattern: "needle", include_ignored: true }, ctx);
    for (const f of ["node_modules/pkg/index.js", ".venv/lib/site.py", "build/out.js"]) {
      assert(every.content.includes(`${f}:1:`), `${f} in ${every.content}`);
    }

    const ls = await listDir.execute({}, ctx);
    assertEquals(ls.isError, false, ls.content);
    assert(
      !/node_modules|\.venv|build|notes|local|debug\.log|scratch/.test(ls.content),
      ls.content,
    );
    assert(ls.content.includes("ignored entries not shown"), ls.content);
    const lsAll = await listDir.execute({ include_ignored: true }, ctx);
    for (const e of ["node_modules/", ".venv/", "build/", "notes.txt", "debug.log"]) {
      assert(lsAll.content.includes(e), `${e} in ${lsAll.content}`);
    }
    // A folder named explicitly is searched although it is ignored, as ripgrep does.
    const inside = await grep.execute({ pattern: "needle", path: "build" }, ctx);
    assert(inside.content.includes("out.js:1:"), inside.content);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("the global git excludes: core.excludesFile, else ~/.config/git/ignore", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-ignore-home-" });
  try {
    assertEquals(await readGlobalExcludes({ HOME: home }), []);
    await Deno.mkdir(`${home}/.config/git`, { recursive: true });
    await Deno.writeTextFile(`${home}/.config/git/ignore`, "*.swp\n");
    assertEquals(await readGlobalExcludes({ HOME: home }), ["*.swp", ""]);
    await Deno.writeTextFile(`${home}/.gitconfig`, "[core]\n\texcludesFile = ~/my-ignore ; mine\n");
    await Deno.writeTextFile(`${home}/my-ignore`, ".DS_Store");
    assertEquals(await readGlobalExcludes({ HOME: home }), [".DS_Store"]);
    assertEquals(
      excludesFileIn('[user]\nexcludesfile = x\n[core "x"]\nexcludesfile = "a b"'),
      "a b",
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("the sandbox worker gets the global excludes from the main process", async () => {
  const ws = await workspace();
  const config = await Deno.makeTempDir({ prefix: "ra-ignore-xdg-" });
  const before = Deno.env.get("XDG_CONFIG_HOME");
  const pool = new SandboxPool();
  try {
    await Deno.mkdir(`${config}/git`);
    await Deno.writeTextFile(`${config}/git/ignore`, "app.ts\n");
    Deno.env.set("XDG_CONFIG_HOME", config);
    const r = await pool.run("read", [ws], "grep", { pattern: "needle" }, ws, signal);
    assertEquals(r.isError, false, r.content);
    assert(!r.content.includes("app.ts"), r.content);
    assert(r.content.includes("src/keep.gen.ts:1:"), r.content);
  } finally {
    if (before === undefined) Deno.env.delete("XDG_CONFIG_HOME");
    else Deno.env.set("XDG_CONFIG_HOME", before);
    pool.closeAll();
    await Deno.remove(ws, { recursive: true });
    await Deno.remove(config, { recursive: true });
  }
});

Deno.test("gitignore lines as git reads them", () => {
  const r = gitIgnore(
    "# comment\n\n*.log\n!keep.log\nbuild/\n/root.txt\ndocs/*.md\n**/gen/**\na/**/z\n" +
      "\\#hash\nspace\\ \n[abc].txt\n[!x]y.txt\n",
  );
  const t = (p: string, dir = false) => r.test(p, dir);
  assertEquals([t("a.log"), t("deep/b.log"), t("keep.log"), t("x.ts")], [true, true, false, null]);
  assertEquals([t("build", true), t("src/build", true), t("build")], [true, true, null]);
  assertEquals([t("root.txt"), t("sub/root.txt")], [true, null]);
  assertEquals([t("docs/a.md"), t("docs/x/a.md"), t("other/docs/a.md")], [true, null, null]);
  // A folder whose contents `x/**` ignores is ignored itself, as git check-ignore says.
  assertEquals([t("gen/x.ts"), t("p/gen/q/x.ts"), t("gen", true), t("gen")], [
    true,
    true,
    true,
    null,
  ]);
  assertEquals([t("a/z"), t("a/b/c/z"), t("b/a/z")], [true, true, null]);
  assertEquals([t("#hash"), t("space "), t("space")], [true, true, null]);
  assertEquals([t("b.txt"), t("d.txt"), t("ay.txt"), t("xy.txt")], [true, null, true, null]);
});
