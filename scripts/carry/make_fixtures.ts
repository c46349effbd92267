/**
 * Regenerates the session fixtures of tests/carry_foreign_test.ts: runs Claude Code, Codex,
 * pi and opencode (the peer bench's pinned npm installs) once each against the mock LLM —
 * list src/, read one module, answer — and copies the session files each wrote into
 * tests/fixtures/carry/<peer>/, the layout of its own data dir kept (Claude Code's request
 * logs left out, see `trimClaude`; opencode's database copied with VACUUM INTO).
 *
 *   deno run -A scripts/carry/make_fixtures.ts [--scratch DIR]   (default ~/.cache/reinagent-peers)
 */
import { join, relative } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { startMockLlm } from "../mock-llm.ts";
import { generateRepo, moduleFile } from "../bench/peer_repo.ts";
import { PEERS } from "../bench/peer_agents.ts";
import { ROOT } from "../../tests/helpers/server.ts";

/** Where each peer keeps its sessions, relative to its bench home. */
const SESSION_DIRS: Record<string, string> = {
  claude: ".claude/projects",
  codex: "codex-home/sessions",
  pi: "pi-agent/sessions",
  opencode: ".local/share/opencode",
};

/**
 * Claude Code also logs each API request (with its whole system prompt) and listings of
 * its tools and skills: not conversation, and not ours to ship. Those lines are dropped.
 */
const NOT_SHIPPED = new Set([
  "prompt_snapshot",
  "skill_listing",
  "agent_listing_delta",
  "deferred_tools_delta",
]);
async function trimClaude(dir: string): Promise<void> {
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) await trimClaude(p);
    else if (e.name.endsWith(".jsonl")) {
      const kept = (await Deno.readTextFile(p)).split("\n").filter((l) => {
        if (!l.trim()) return false;
        const o = JSON.parse(l);
        return !String(o.type).startsWith("api-request") &&
          !(o.type === "attachment" && NOT_SHIPPED.has(o.attachment?.type));
      });
      await Deno.writeTextFile(p, kept.join("\n") + "\n");
    }
  }
}

async function copyTree(from: string, to: string): Promise<number> {
  let n = 0;
  for await (const e of Deno.readDir(from)) {
    const src = join(from, e.name);
    if (e.isDirectory) n += await copyTree(src, join(to, e.name));
    else if (e.isFile) {
      await Deno.mkdir(to, { recursive: true });
      await Deno.copyFile(src, join(to, e.name));
      n++;
    }
  }
  return n;
}

if (import.meta.main) {
  const i = Deno.args.indexOf("--scratch");
  const scratch = i >= 0
    ? Deno.args[i + 1]
    : join(Deno.env.get("HOME") ?? "/root", ".cache", "reinagent-peers");
  const prefix = join(scratch, "npm");
  const session = await Deno.makeTempDir({ dir: scratch, prefix: "fixtures-" });
  const repo = join(session, "repo");
  await generateRepo(repo);
  const mock = startMockLlm({ quiet: true });
  const out = join(ROOT, "tests", "fixtures", "carry");
  for (const peer of PEERS.filter((p) => p.id in SESSION_DIRS)) {
    const home = join(session, peer.id);
    await Deno.mkdir(home, { recursive: true });
    const launch = await peer.prepare({ base: mock.base, home, repo, prefix });
    mock.register(peer.model, {
      turns: [
        { text: "Listing the modules.", toolCalls: [{ ...peer.listCall(repo), id: "call_list" }] },
        {
          text: "Reading module 1.",
          toolCalls: [{ ...peer.readCall(repo, moduleFile(1)), id: "call_read_1" }],
        },
        { text: "Module 1 exports compute1 and MARKER_01. FIXTURE-DONE" },
      ],
    });
    if (peer.smallModel) {
      mock.register(peer.smallModel, { turns: [{ text: "Fixture run" }], repeatLast: true });
    }
    const r = await new Deno.Command(launch.cmd[0], {
      args: launch.cmd.slice(1),
      cwd: repo,
      env: { ...launch.env, XDG_DATA_HOME: join(home, ".local", "share") },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    console.error(`${peer.id}: exit ${r.code} ${dec.decode(r.stdout).slice(-200)}`);
    if (r.code !== 0) console.error(dec.decode(r.stderr).slice(-1500));
    const dir = join(home, SESSION_DIRS[peer.id]);
    await Deno.remove(join(out, peer.id), { recursive: true }).catch(() => {});
    if (peer.id === "opencode") {
      // One self-contained file (its WAL folded in), nothing else of its data dir.
      await Deno.mkdir(join(out, "opencode"), { recursive: true });
      const db = new DatabaseSync(join(dir, "opencode.db"));
      db.exec(`VACUUM INTO '${join(out, "opencode", "opencode.db").replaceAll("'", "''")}'`);
      db.close();
      console.error("opencode: opencode.db");
      continue;
    }
    const n = await copyTree(dir, join(out, peer.id)).catch((e) => {
      console.error(`${peer.id}: no sessions at ${relative(session, dir)}: ${e.message}`);
      return 0;
    });
    if (peer.id === "claude") await trimClaude(join(out, peer.id));
    console.error(`${peer.id}: ${n} files`);
  }
  await mock.close();
  console.error(`repo was ${repo}`);
}
