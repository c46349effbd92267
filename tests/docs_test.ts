/**
 * The documentation stays true: docs/cli.md is what `deno task docs:cli` makes of the
 * parser's help text, and every fenced block marked ```sh runnable in README.md,
 * ARCHITECTURE.md, CONTRIBUTING.md and docs/ runs and exits 0 — as a user would type it,
 * with `reinagent` on the PATH (the source tree's main.ts), a temporary data dir
 * (REINAGENT_HOME, one per page so a page's blocks build on each other) and a temporary
 * working folder. Blocks marked `cwd=repo` run in the project's root instead; blocks marked
 * `server` end in a command that serves until stopped: they pass once it prints the URL it
 * is running at, and are then stopped.
 *
 * The docs' local model server (Ollama's address, http://127.0.0.1:11434) is served by the
 * mock LLM here, answering the model names the pages use.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { ROOT, RUN_FLAGS } from "./helpers/server.ts";
import { denoDir } from "./helpers/server.ts";
import { CLI_DOC, expectedCliDoc } from "../scripts/docs_cli.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";

const LOCAL_MODEL_URL = "http://127.0.0.1:11434";
const LOCAL_MODELS = ["qwen3", "llama3.2"];

interface Block {
  file: string;
  line: number;
  code: string;
  inRepo: boolean;
  server: boolean;
}

async function docFiles(): Promise<string[]> {
  const files = ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md"];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(`${ROOT}${dir}`)) {
      if (e.isDirectory) await walk(`${dir}/${e.name}`);
      else if (e.name.endsWith(".md")) files.push(`${dir}/${e.name}`);
    }
  };
  await walk("docs");
  return files.sort();
}

/** The ```sh runnable blocks of one Markdown text. */
export function runnableBlocks(file: string, text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(/^(`{3,})sh\s+runnable\b(.*)$/);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith(open[1]) && /^`+\s*$/.test(l));
    assert(end > i, `${file}:${i + 1}: unclosed code block`);
    blocks.push({
      file,
      line: i + 1,
      code: lines.slice(i + 1, end).join("\n"),
      inRepo: /\bcwd=repo\b/.test(open[2]),
      server: /\bserver\b/.test(open[2]),
    });
    i = end;
  }
  return blocks;
}

/**
 * Runs a block whose last command serves until stopped (made the shell's own process with
 * `exec`, so the signal reaches it): it must print the URL it runs at, then it is stopped.
 */
async function runServerBlock(code: string, cwd: string, env: Record<string, string>) {
  const lines = code.trimEnd().split("\n");
  lines[lines.length - 1] = `exec ${lines[lines.length - 1]}`;
  const child = new Deno.Command("bash", {
    args: ["-euo", "pipefail", "-c", lines.join("\n")],
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  let seen: () => void = () => {};
  const ready = new Promise<void>((resolve) => seen = resolve);
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const dec = new TextDecoder();
    for await (const chunk of stream) {
      out += dec.decode(chunk, { stream: true });
      if (/running at https?:\/\//.test(out)) seen();
    }
  };
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
  const ended = child.status.then((s) => s);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const first = await Promise.race([
    ready.then(() => "ready" as const),
    ended.then(() => "ended" as const),
    new Promise<"timeout">((resolve) => timer = setTimeout(() => resolve("timeout"), 120_000)),
  ]);
  clearTimeout(timer);
  if (first !== "ended") child.kill("SIGTERM");
  const status = await ended;
  await pumps;
  assert(first === "ready", `the server block ended (code ${status.code}) before serving:\n${out}`);
}

Deno.test("docs/cli.md is what `deno task docs:cli` generates from USAGE", async () => {
  assertEquals(
    await Deno.readTextFile(CLI_DOC),
    await expectedCliDoc(),
    "docs/cli.md is stale: run `deno task docs:cli`",
  );
});

Deno.test("the block finder takes only ```sh runnable blocks, with their options", () => {
  const md = "```sh\nno\n```\n```sh runnable\na\nb\n```\n````sh runnable cwd=repo\nc\n````\n" +
    "```sh runnable server\nd\n```\n";
  assertEquals(runnableBlocks("x.md", md), [
    { file: "x.md", line: 4, code: "a\nb", inRepo: false, server: false },
    { file: "x.md", line: 8, code: "c", inRepo: true, server: false },
    { file: "x.md", line: 11, code: "d", inRepo: false, server: true },
  ]);
});

Deno.test("every runnable command in the README and docs runs", async (t) => {
  const tmp = await Deno.makeTempDir({ prefix: "ra-doctest-" });
  const bin = `${tmp}/bin`;
  await Deno.mkdir(bin);
  // `reinagent` as the docs call it: the program from this source tree.
  const quoted = [...RUN_FLAGS, `${ROOT}main.ts`].map((a) => `'${a}'`).join(" ");
  await Deno.writeTextFile(
    `${bin}/reinagent`,
    `#!/bin/sh\nexec '${Deno.execPath()}' ${quoted} "$@"\n`,
    { mode: 0o755 },
  );
  const mock = startMockLlm({ quiet: true });
  for (const name of LOCAL_MODELS) {
    mock.register(name, { turns: [{ text: `Hello from ${name}.` }], repeatLast: true });
  }
  const blocks: Block[] = [];
  for (const file of await docFiles()) {
    blocks.push(...runnableBlocks(file, await Deno.readTextFile(`${ROOT}${file}`)));
  }
  try {
    assert(blocks.length >= 10, `only ${blocks.length} runnable blocks found`);
    const homes = new Map<string, { home: string; work: string }>();
    for (const b of blocks) {
      let dirs = homes.get(b.file);
      if (!dirs) {
        dirs = {
          home: await Deno.makeTempDir({ dir: tmp, prefix: "home-" }),
          work: await Deno.makeTempDir({ dir: tmp, prefix: "work-" }),
        };
        await Deno.writeTextFile(`${dirs.work}/README.md`, "# A small project\n");
        homes.set(b.file, dirs);
      }
      const env = {
        PATH: `${bin}:${Deno.env.get("PATH")}`,
        HOME: tmp,
        REINAGENT_HOME: dirs.home,
        DENO_DIR: denoDir(),
        // npx (an MCP server in the docs) keeps using the machine's package cache.
        npm_config_cache: `${Deno.env.get("HOME")}/.npm`,
        NO_COLOR: "1",
      };
      const cwd = b.inRepo ? ROOT : dirs.work;
      await t.step(`${b.file}:${b.line}`, async () => {
        const code = b.code.replaceAll(LOCAL_MODEL_URL, mock.base);
        if (b.server) return await runServerBlock(code, cwd, env);
        const out = await new Deno.Command("bash", {
          args: ["-euo", "pipefail", "-c", code],
          cwd,
          env,
          clearEnv: true,
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
          signal: AbortSignal.timeout(180_000),
        }).output();
        const dec = new TextDecoder();
        assertEquals(
          out.code,
          0,
          `${b.file}:${b.line} exited ${out.code}\n--- block\n${b.code}\n--- stdout\n${
            dec.decode(out.stdout)
          }\n--- stderr\n${dec.decode(out.stderr)}`,
        );
      });
    }
  } finally {
    await mock.close();
    await Deno.remove(tmp, { recursive: true });
  }
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
const slug = (heading: string) =>
  heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replaceAll(" ", "-");

Deno.test("links between the README and docs lead to files and headings that exist", async () => {
  const broken: string[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = async (file: string) => {
    if (!anchorsOf.has(file)) {
      const text = await Deno.readTextFile(`${ROOT}${file}`).catch(() => "");
      const heads = text.replace(/^```[\s\S]*?^```/gm, "").match(/^#{1,6} .*$/gm) ?? [];
      anchorsOf.set(file, new Set(heads.map((h) => slug(h.replace(/^#+ /, "")))));
    }
    return anchorsOf.get(file)!;
  };
  for (const file of await docFiles()) {
    const text = (await Deno.readTextFile(`${ROOT}${file}`)).replace(/^```[\s\S]*?^```/gm, "");
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const href = m[1];
      if (/^[a-z]+:/i.test(href)) continue; // another site
      const [path, anchor] = href.split("#");
      const target = path
        ? new URL(path, `file://${ROOT}${file}`).pathname.slice(ROOT.length)
        : file;
      const exists = await Deno.stat(`${ROOT}${target}`).then(() => true, () => false);
      if (!exists) broken.push(`${file}: ${href} (no ${target})`);
      else if (anchor && target.endsWith(".md") && !(await anchors(target)).has(anchor)) {
        broken.push(`${file}: ${href} (no heading #${anchor})`);
      }
    }
  }
  assertEquals(broken, []);
});
