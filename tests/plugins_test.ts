/**
 * Plugins on real folders: discovery in the data folder and a project, bad
 * manifests reported, path escapes and links into the data folder refused, off until
 * enabled, hooks run only once trusted for exactly what they are (a real hook blocking a
 * real run with the mock LLM), commands and skills contributed, `reinagent plugins`.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { join } from "node:path";
import { entries, env } from "./helpers/agent_env.ts";
import {
  agentRequests,
  execScenario,
  exists,
  hookNotes,
  run,
  workspace,
} from "./helpers/hooks_env.ts";
import { discoverPlugins } from "../server/plugins/discover.ts";
import { setPluginEnabled, trustPlugin } from "../server/plugins/actions.ts";
import { pluginStatePath } from "../server/plugins/state.ts";
import { listCommands } from "../server/commands/registry.ts";
import { discoverSkills } from "../server/skills/discover.ts";
import { parsePluginsArgs, pluginsCommand } from "../server/cli/plugins_cmd.ts";

async function tmp(prefix: string): Promise<string> {
  return await Deno.realPath(await Deno.makeTempDir({ prefix }));
}

async function plugin(dir: string, manifest: unknown, files: Record<string, string> = {}) {
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    join(dir, "plugin.json"),
    typeof manifest === "string" ? manifest : JSON.stringify(manifest),
  );
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, rel), text);
  }
}

const byName = async (home: string, ws: string[]) =>
  Object.fromEntries((await discoverPlugins(home, ws)).map((p) => [p.name, p]));

Deno.test("discovery: bad manifests reported, escapes and links into the data folder refused", async () => {
  const home = await tmp("ra-plugins-home-");
  const ws = await tmp("ra-plugins-ws-");
  const outside = await tmp("ra-plugins-out-");
  try {
    const user = join(home, "plugins");
    await plugin(join(user, "good"), {
      name: "good",
      version: "1.2.0",
      description: "Good one",
      commands: "commands",
      skills: "skills",
    }, { "commands/hello.md": "Say hello to $ARGUMENTS", "skills/greet/SKILL.md": "x" });
    await plugin(join(user, "badjson"), "{ not json");
    await plugin(join(user, "noname"), { version: "1" });
    await plugin(join(user, "badname"), { name: "../evil" });
    await plugin(join(user, "climb"), { name: "climb", commands: "../good/commands" });
    await plugin(join(user, "abs"), { name: "abs", skills: "/etc" });
    await plugin(join(user, "badhook"), {
      name: "badhook",
      hooks: [{ event: "Nope", command: "x" }],
    });
    // A commands folder that links out of the plugin.
    await plugin(join(user, "linkout"), { name: "linkout", commands: "cmds" });
    await Deno.symlink(outside, join(user, "linkout", "cmds"));
    // A plugin folder that is a link to the data folder itself.
    await Deno.symlink(home, join(user, "homelink"));
    // A project's plugin leading into the data folder and one leading out of the project.
    const wsPlugins = join(ws, ".reinagent", "plugins");
    await Deno.mkdir(wsPlugins, { recursive: true });
    await plugin(join(home, "secret-plugin"), { name: "secret" });
    await Deno.symlink(join(home, "secret-plugin"), join(wsPlugins, "intohome"));
    await plugin(join(outside, "elsewhere"), { name: "elsewhere" });
    await Deno.symlink(join(outside, "elsewhere"), join(wsPlugins, "out"));
    await plugin(join(wsPlugins, "local"), { name: "local", description: "Project plugin" });

    const all = await discoverPlugins(home, [ws]);
    const st = Object.fromEntries(all.map((p) => [p.path.split("/").pop(), p]));
    assertEquals(st.good.state, "ok");
    assertEquals(st.good.version, "1.2.0");
    assertEquals(st.good.enabled, false, "off until enabled");
    assertEquals(st.good.commandsDir, join(user, "good", "commands"));
    assertMatch(st.badjson.error!, /not valid JSON/);
    assertMatch(st.noname.error!, /"name" must be a non-empty string/);
    assertMatch(st.badname.error!, /may hold only letters/);
    assertMatch(st.climb.error!, /outside the plugin folder/);
    assertMatch(st.abs.error!, /outside the plugin folder/);
    assertMatch(st.badhook.error!, /unknown|expected one of/);
    assertMatch(st.linkout.error!, /outside the plugin folder/);
    assertEquals(st.homelink.state, "refused");
    assertMatch(st.homelink.error!, /data folder/);
    assertEquals(st.intohome.state, "refused");
    assertEquals(st.out.state, "refused");
    assertMatch(st.out.error!, /outside the project/);
    assertEquals(st.local.state, "ok");
    assertEquals(st.local.scope, "workspace");
    assertEquals(st.local.project, ws);
    for (const k of ["badjson", "climb", "homelink", "intohome"]) {
      assertEquals(st[k].commandsDir, null, `${k} contributes nothing`);
    }
    // A broken or refused plugin cannot be switched on.
    const r = await setPluginEnabled(home, [ws], join(wsPlugins, "intohome"), true);
    assert(!r.ok && r.code === "invalid_args");
  } finally {
    for (const d of [home, ws, outside]) await Deno.remove(d, { recursive: true });
  }
});

Deno.test("enabled plugins contribute commands and skills; disabled ones nothing", async () => {
  const home = await tmp("ra-plugins-home-");
  const ws = await tmp("ra-plugins-ws-");
  try {
    const dir = join(home, "plugins", "greeter");
    await plugin(dir, { name: "greeter", commands: "commands", skills: "skills" }, {
      "commands/hello.md": "---\ndescription: Greets\n---\nSay hello to $ARGUMENTS",
      "skills/greet/SKILL.md": "---\nname: greet\ndescription: Greets people\n---\nBe kind.",
    });
    const names = async () =>
      (await listCommands({ workspace: ws, home, userHome: ws })).commands
        .map((c) => c.name);
    const skills = async () =>
      (await discoverSkills({ home, workspace: ws, userHome: null })).skills
        .filter((s) => s.enabled && !s.problem).map((s) => s.key);
    assert(!(await names()).includes("hello"));
    assertEquals(await skills(), []);
    // A skill folder linking into the data folder is refused, not read.
    await Deno.symlink(home, join(dir, "skills", "sneaky"));
    assert((await setPluginEnabled(home, [ws], "greeter", true)).ok);
    assert((await names()).includes("hello"));
    assertEquals(await skills(), ["plugin:greeter/greet"]);
    const { overview } = await discoverSkills({ home, workspace: ws, userHome: null });
    assert(
      overview.problems.some((p) =>
        p.path.endsWith("sneaky") && /outside its plugin/.test(p.message)
      ),
      JSON.stringify(overview.problems),
    );
    assert((await setPluginEnabled(home, [ws], dir, false)).ok);
    assert(!(await names()).includes("hello"));
  } finally {
    for (const d of [home, ws]) await Deno.remove(d, { recursive: true });
  }
});

Deno.test("a plugin's hook runs only once trusted for what it is; a change stops it", async () => {
  const e = await env();
  const ws = await workspace();
  try {
    const home = e.deps.home;
    const dir = join(ws, ".reinagent", "plugins", "guard");
    const hooks = [{
      event: "PreToolUse",
      matcher: "Bash",
      command: "echo 'blocked by the guard plugin' >&2; exit 2",
    }];
    await plugin(dir, { name: "guard", hooks });
    assert((await setPluginEnabled(home, [ws], dir, true)).ok);
    assertEquals((await byName(home, [ws])).guard.state, "untrusted");

    // Enabled but untrusted: the hook does not run, the command does.
    const m1 = e.scenario(execScenario("touch one.txt"));
    const first = await run(e, m1, ws, "touch one");
    assert(await exists(join(ws, "one.txt")), "an untrusted plugin hook does not run");
    const notes = hookNotes(entries(e, first.task.id));
    assertEquals(notes.map((n) => n.meta.code), ["plugin.untrusted"]);
    assertMatch(notes[0].parts[0].text!, /plugin guard did not run: they are not trusted yet/);

    // A stale fingerprint is refused; the shown one is trusted.
    const shown = (await byName(home, [ws])).guard.fingerprint;
    const stale = await trustPlugin(home, [ws], dir, "0".repeat(64));
    assert(!stale.ok && stale.code === "conflict");
    assert((await trustPlugin(home, [ws], dir, shown)).ok);
    const m2 = e.scenario(execScenario("touch two.txt"));
    await run(e, m2, ws, "touch two");
    assert(!(await exists(join(ws, "two.txt"))), "the trusted hook blocked the command");
    assert(agentRequests(e, m2.modelId)[1].includes("blocked by the guard plugin"));

    // The manifest's hooks change (the agent edits it, say): not trusted any more.
    await plugin(dir, { name: "guard", hooks: [{ event: "PreToolUse", command: "true" }] });
    assertEquals((await byName(home, [ws])).guard.state, "changed");
    const m3 = e.scenario(execScenario("touch three.txt"));
    await run(e, m3, ws, "touch three");
    assert(await exists(join(ws, "three.txt")));
  } finally {
    await e.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("a damaged plugins.json is reported, trusts nothing and is never overwritten", async () => {
  const home = await tmp("ra-plugins-home-");
  try {
    await plugin(join(home, "plugins", "p"), { name: "p" });
    await Deno.writeTextFile(pluginStatePath(home), "{ broken");
    const [p] = await discoverPlugins(home, []);
    assertEquals(p.enabled, false);
    assertMatch(p.error!, /damaged/);
    const r = await setPluginEnabled(home, [], "p", true);
    assert(!r.ok);
    assertMatch(r.message, /fix or remove it first/);
    assertEquals(await Deno.readTextFile(pluginStatePath(home)), "{ broken");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("reinagent plugins list|enable|disable|trust", async () => {
  const home = await tmp("ra-plugins-home-");
  const ws = await tmp("ra-plugins-ws-");
  try {
    await plugin(join(home, "plugins", "tool"), {
      name: "tool",
      version: "0.1.0",
      hooks: [{ event: "Stop", command: "true" }],
    });
    const io = () => {
      const out: string[] = [];
      const err: string[] = [];
      return {
        out,
        err,
        io: { line: (s: string) => out.push(s), err: (s: string) => err.push(s) },
      };
    };
    const cli = async (...argv: string[]) => {
      const a = parsePluginsArgs([...argv, "--project", ws]);
      if ("error" in a) throw new Error(a.error);
      const o = io();
      const code = await pluginsCommand(a, home, o.io);
      return { code, out: o.out.join("\n"), err: o.err.join("\n") };
    };
    assertMatch((await cli("list")).out, /tool 0\.1\.0 \[user\] — disabled, hooks not trusted/);
    assertEquals((await cli("enable", "tool")).code, 0);
    assertEquals((await cli("trust", "tool")).code, 0);
    assertMatch((await cli("list")).out, /tool 0\.1\.0 \[user\] — enabled, ready/);
    assertEquals((await cli("disable", "tool")).code, 0);
    assertMatch((await cli("list")).out, /disabled, ready/);
    const missing = await cli("enable", "nope");
    assertEquals(missing.code, 1);
    assertMatch(missing.err, /no plugin at nope/);
    assert("error" in parsePluginsArgs(["enable"]));
    assert("error" in parsePluginsArgs(["remove", "x"]));
  } finally {
    for (const d of [home, ws]) await Deno.remove(d, { recursive: true });
  }
});

Deno.test("a user plugin's hook finds its own script through CLAUDE_PLUGIN_ROOT (inside the data dir)", async () => {
  const e = await env();
  const ws = await workspace();
  try {
    const home = e.deps.home;
    const dir = join(home, "plugins", "scripted");
    await plugin(dir, {
      name: "scripted",
      hooks: [{ event: "PreToolUse", matcher: "Bash", command: '"$CLAUDE_PLUGIN_ROOT/guard.sh"' }],
    }, { "guard.sh": '#!/bin/sh\necho "guard at $REINAGENT_PLUGIN_ROOT" >&2\nexit 2\n' });
    await Deno.chmod(join(dir, "guard.sh"), 0o755);
    assert((await setPluginEnabled(home, [ws], "scripted", true)).ok);
    assert((await trustPlugin(home, [ws], "scripted", null)).ok);
    const m = e.scenario(execScenario("touch ran.txt"));
    await run(e, m, ws, "touch it");
    assert(!(await exists(join(ws, "ran.txt"))), "the plugin's script blocked the command");
    const real = await Deno.realPath(dir);
    assert(agentRequests(e, m.modelId)[1].includes(`guard at ${real}`));
  } finally {
    await e.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("switches flipped at once all land in plugins.json", async () => {
  const home = await tmp("ra-plugins-home-");
  try {
    for (const n of ["a", "b", "c", "d"]) await plugin(join(home, "plugins", n), { name: n });
    const rs = await Promise.all(
      ["a", "b", "c", "d"].map((n) => setPluginEnabled(home, [], n, true)),
    );
    assert(rs.every((r) => r.ok));
    assertEquals((await discoverPlugins(home, [])).filter((p) => p.enabled).length, 4);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
