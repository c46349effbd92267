/** Safety notices and the command-safety settings, through the ops (in-process). */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { createServices } from "../server/services.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { EvtMsg, SafetyNotice } from "../protocol/index.ts";
import { loweredSettings } from "../server/sessions/safety.ts";
import { describeClient } from "../server/sessions/clients.ts";
import { clientWords } from "../protocol/index.ts";
import { getSettings } from "../server/providers/catalog.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { mockProvider } from "./helpers/seed.ts";

async function harness() {
  const home = await Deno.makeTempDir({ prefix: "ra-safety-" });
  const deps = createServices({ home, flushMs: 5 });
  const got: EvtMsg[] = [];
  const client = {
    id: "c",
    info: { kind: "phone" as const, browser: "Chrome", os: "Android", ip: "192.168.1.7" },
    topics: new Set(["notices"]),
    deliver: (e: EvtMsg[]) => void got.push(...e),
  };
  deps.hub.add(client);
  const op = async (name: string, args: unknown = {}) => {
    const out = await runOp({ ...deps, client }, name, args);
    if (!out.ok) throw Object.assign(new Error(out.error.message), { code: out.error.code });
    // deno-lint-ignore no-explicit-any
    return out.result as any;
  };
  const notices = () => {
    deps.hub.flush();
    return got.filter((e) => e.topic === "notices").map((e) => e.data as SafetyNotice);
  };
  return {
    deps,
    op,
    notices,
    async close() {
      await deps.runs!.stopAll();
      deps.hub.close();
      deps.store.close();
    },
  };
}

Deno.test("safety: lowering a setting is announced with who did it; raising it is not", async () => {
  const h = await harness();
  const warn = console.warn;
  const logged: string[] = [];
  console.warn = (...a: unknown[]) => void logged.push(a.join(" "));
  try {
    await h.op("settings.set", { sandboxLevel: "read-only", defaultApproval: "ask" });
    assertEquals(h.notices().length, 0, "raising safety is no notice");
    await h.op("settings.set", {
      sandboxLevel: "off",
      defaultApproval: "full",
      commandEnvAllow: ["GH_TOKEN"],
    });
    const [n] = h.notices();
    assertEquals(n.by, { kind: "phone", browser: "Chrome", os: "Android", ip: "192.168.1.7" });
    assertEquals(n.changes, [
      { what: "sandboxLevel", from: "read-only", to: "off" },
      { what: "defaultApproval", from: "ask", to: "full" },
      { what: "envAllow", added: ["GH_TOKEN"] },
    ]);
    assertMatch(
      logged.join("\n"),
      /safety lowered by a phone \(Chrome, Android\) from 192\.168\.1\.7/,
    );
    const { task } = await h.op("tasks.create", { title: "t", options: { approval: "plan" } });
    await h.op("task.setOptions", { id: task.id, approval: "edit" });
    await h.op("task.setToolPolicy", { id: task.id, tool: "exec_command", policy: "allow" });
    await h.op("task.setToolPolicy", { id: task.id, tool: "exec_command", policy: "allow" });
    await h.op("task.setOptions", { id: task.id, approval: "ask" }); // raising: no notice
    const later = h.notices().slice(1).flatMap((x) => x.changes);
    assertEquals(later, [
      { what: "taskApproval", taskId: task.id, taskTitle: "t", from: "plan", to: "edit" },
      { what: "toolPolicy", taskId: task.id, taskTitle: "t", tool: "exec_command", to: "allow" },
    ]);
    const info = await h.op("safety.info");
    assertEquals(info.recent.length, 3, "kept on the server for Settings");
    assertEquals(info.sandboxed, false);
    assertEquals(info.hidden[0], h.deps.home, "the data folder is always hidden first");
  } finally {
    console.warn = warn;
    await h.close();
  }
});

Deno.test("safety settings: bad names and paths are refused and change nothing", async () => {
  const h = await harness();
  try {
    for (const bad of [["1ABC"], ["A B"], ["X=1"], Array(65).fill("A")]) {
      const e = await h.op("settings.set", { commandEnvAllow: bad }).catch((e) => e);
      assertEquals(e.code, "invalid_args", JSON.stringify(bad));
    }
    for (const bad of [["/"], ["relative/path"], ["~/"], ["~user/x"], ["/a\u0000b"]]) {
      const e = await h.op("settings.set", { hiddenPaths: bad }).catch((e) => e);
      assertEquals(e.code, "invalid_args", JSON.stringify(bad));
    }
    const s = getSettings(h.deps.store.repos!);
    assertEquals(s.commandEnvAllow, []);
    assert(s.hiddenPaths.includes("~/.ssh"));
    const set = await h.op("settings.set", { hiddenPaths: ["~/.ssh/", "/srv/keys", "/srv/keys"] });
    assertEquals(set.hiddenPaths, ["~/.ssh", "/srv/keys"]);
    const removed = h.notices().flatMap((n) => n.changes).find((c) => c.what === "hiddenPaths");
    assert(removed && removed.what === "hiddenPaths" && removed.removed.includes("~/.aws"));
  } finally {
    await h.close();
  }
});

Deno.test("the log names the client: device, browser and address", () => {
  const android =
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";
  const words = (ua: string | null, ip: string) => clientWords({ ...describeClient(ua), ip });
  assertEquals(words(android, "192.168.1.7"), "a phone (Chrome, Android) from 192.168.1.7");
  assertEquals(words("Deno/2.9.6", "127.0.0.1"), "the CLI from 127.0.0.1");
  assertEquals(words(null, "::1"), "a client from ::1");
  const same = getSettingsLike();
  assertEquals(loweredSettings(same, same), []);
});

function getSettingsLike() {
  return {
    defaultModel: null,
    defaultEffort: "default" as const,
    defaultApproval: "edit" as const,
    sandboxLevel: "workspace-write" as const,
    sandboxNetwork: true,
    commandEnvAllow: [],
    hiddenPaths: ["~/.ssh"],
    compactModel: null,
  };
}

Deno.test("no sandbox: full mode asks once per task before the first command", async () => {
  const h = await harness();
  const mock = startMockLlm({ quiet: true });
  try {
    h.deps.store.repos!.providers.put({ ...mockProvider(mock.base, ["cmds"]), id: "mock" });
    const cmd = (c: string) => ({ name: "exec_command", args: { command: c } });
    mock.register("cmds", {
      turns: [{ toolCalls: [cmd("echo one")] }, { toolCalls: [cmd("echo two")] }, { text: "ok" }],
    });
    await h.op("settings.set", { sandboxLevel: "off", defaultApproval: "full" });
    const run = async (decision: "allow" | "reject") => {
      const { task } = h.deps.tasks!.create({
        title: decision,
        message: "go",
        options: { model: { providerId: "mock", modelId: "cmds" } },
      });
      let finished = false;
      const done = h.deps.runs!.start(task.id).finally(() => finished = true);
      const asked: [string, string | undefined, string][] = [];
      while (!finished) {
        for (const p of h.deps.approvals!.list()) {
          asked.push([p.kind, p.unsandboxed, p.summary]);
          h.deps.approvals!.decide(p.id, decision);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      await done;
      const tools = h.deps.store.repos!.entries.latest(task.id, 100).filter((e) =>
        e.role === "tool"
      );
      return { asked, tools };
    };
    const allowed = await run("allow");
    assertEquals(allowed.asked, [["unsandboxed", "off", "$ echo one"]], "asked once per task");
    assertEquals(allowed.tools.map((e) => e.parts[0].text?.split("\n")[0]), ["one", "two"]);
    const rejected = await run("reject");
    assertEquals(rejected.asked.map((a) => a[0]), ["unsandboxed", "unsandboxed"]);
    for (const e of rejected.tools) {
      const meta = e.parts[0].data?.meta as { refusal?: { code: string } };
      assertEquals(meta.refusal?.code, "unsandboxed");
    }
  } finally {
    await mock.close();
    await h.close();
  }
});
