/**
 * A bubblewrap probe that failed is not the final word: a later status request (the next
 * command that would run unsandboxed) probes again after a while, the clients hear a
 * change, and while it keeps failing every task still asks before running bare.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { mockProvider } from "./helpers/seed.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { createServices } from "../server/services.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { OpContext } from "../server/ops/context.ts";
import type { PendingApproval } from "../protocol/index.ts";
import { SETTINGS_TOPIC, type SettingsEvent } from "../protocol/providers.ts";
import {
  probeBwrap,
  SANDBOX,
  SANDBOX_RETRY_MS,
  SandboxState,
  type SandboxStatus,
} from "../tools/exec/bwrap.ts";

const DOWN: SandboxStatus = { backend: "none", available: false, reason: "bwrap cannot run: busy" };
const UP: SandboxStatus = { backend: "bwrap", available: true, path: "/x/bwrap" };

Deno.test("SandboxState: a failure is probed again after the retry time, a success is kept", async () => {
  let clock = 0;
  const answers = [DOWN, DOWN, UP];
  let probes = 0;
  const state = new SandboxState(() => Promise.resolve(answers[probes++]), () => clock, 1000);
  const heard: boolean[] = [];
  state.onChange((s) => heard.push(s.available));
  assertEquals((await state.get()).available, false);
  clock = 999;
  assertEquals((await state.get()).available, false);
  assertEquals(probes, 1, "not again before the retry time");
  clock = 1000;
  // Requests while a probe runs share it.
  const [a, b] = await Promise.all([state.get(), state.get()]);
  assertEquals([a.available, b.available, probes], [false, false, 2]);
  assertEquals(heard, [], "no change yet");
  clock = 2000;
  assertEquals((await state.get()).available, true);
  assertEquals(heard, [true]);
  clock = 1_000_000;
  assertEquals((await state.get()).available, true);
  assertEquals(probes, 3, "a working sandbox is not probed again");
});

/** Services whose sandbox probe is `probe`, on a clock the test moves. */
async function services(turns: unknown[], probe: () => Promise<SandboxStatus>) {
  const clock = { t: 0 };
  SANDBOX.reset(probe, () => clock.t);
  const home = await Deno.makeTempDir({ prefix: "ra-sbx-" });
  await Deno.mkdir(`${home}/DefaultProject`);
  const mock = startMockLlm({ quiet: true });
  const model = `sbx-${crypto.randomUUID()}`;
  mock.register(model, { turns: turns as never, repeatLast: true });
  const deps = createServices({ home, flushMs: 5 });
  deps.store.repos!.providers.put(mockProvider(mock.base, [model]));
  const ctx = {
    ...deps,
    client: { id: "ui", topics: new Set<string>(), deliver() {} },
  } as unknown as OpContext;
  const op = async <T>(name: string, args: unknown): Promise<T> => {
    const out = await runOp(ctx, name, args);
    if (!out.ok) throw new Error(`${name}: ${out.error.message}`);
    return out.result as T;
  };
  // What a client subscribed to settings hears.
  const told: SettingsEvent[] = [];
  let onTold = () => {};
  deps.hub.observe({
    id: "client",
    topics: new Set([SETTINGS_TOPIC]),
    deliver: (evs) => {
      for (const e of evs) told.push(e.data as SettingsEvent);
      onTold();
    },
  });
  /** The next run end of `taskId`, or the approval it waits for. */
  const next = (taskId: string) =>
    new Promise<PendingApproval | "finished">((resolve) => {
      deps.runs!.onFinish((id) => id === taskId && resolve("finished"));
      deps.hub.observe({
        id: `w-${crypto.randomUUID()}`,
        topics: new Set(["approvals"]),
        deliver: (evs) => {
          for (const e of evs) {
            const p = (e.data as { approvals: PendingApproval[] }).approvals
              ?.find((x) => x.taskId === taskId && x.live);
            if (p) resolve(p);
          }
        },
      });
    });
  const results = (taskId: string) =>
    deps.store.repos!.entries.latest(taskId, 100).filter((e) => e.role === "tool").map((e) => ({
      content: e.parts[0].text ?? "",
      sandbox: (e.parts[0].data?.meta as { sandbox?: string } | undefined)?.sandbox ?? "",
    }));
  return {
    clock,
    deps,
    op,
    next,
    told,
    results,
    ref: { providerId: "mock", modelId: model },
    toldWhen: (ok: (e: SettingsEvent[]) => boolean) =>
      new Promise<void>((resolve) => {
        onTold = () => ok(told) && resolve();
        onTold();
      }),
    async close() {
      await deps.runs!.stopAll();
      deps.hub.close();
      deps.store.close();
      await mock.close();
      await Deno.remove(home, { recursive: true });
      SANDBOX.reset();
    },
  };
}

const TWO_COMMANDS = [
  { toolCalls: [{ name: "exec_command", args: { command: "echo one" } }] },
  { text: "first done" },
  { toolCalls: [{ name: "exec_command", args: { command: "echo two" } }] },
  { text: "second done" },
];

/** Commands can only be shown running in bwrap where bwrap works (not on macOS, say). */
const BWRAP_WORKS = (await probeBwrap()).available;

Deno.test({
  name: "a probe that failed at start succeeds later: commands run sandboxed, clients are told",
  ignore: !BWRAP_WORKS,
}, async () => {
  let probes = 0;
  const s = await services(
    TWO_COMMANDS,
    () => ++probes === 1 ? Promise.resolve(DOWN) : probeBwrap(),
  );
  try {
    const { task } = await s.op<{ task: { id: string } }>("tasks.create", {
      options: { model: s.ref, approval: "full" },
    });
    // The first command would run bare: asked once, allowed, run without a sandbox.
    let waits = s.next(task.id);
    await s.op("task.send", { id: task.id, text: "one" });
    const ask = await waits;
    assert(ask !== "finished", "ran unsandboxed without asking");
    assertEquals([ask.kind, ask.unsandboxed], ["unsandboxed", "unavailable"]);
    waits = s.next(task.id);
    assert(s.deps.approvals!.decide(ask.id, "allow"));
    assertEquals(await waits, "finished");
    assertMatch(s.results(task.id)[0].sandbox, /^none \(bwrap unavailable/);
    assertEquals(probes, 1);

    // Later, the next command probes again; bubblewrap works now.
    s.clock.t += SANDBOX_RETRY_MS;
    waits = s.next(task.id);
    await s.op("task.send", { id: task.id, text: "two" });
    assertEquals(await waits, "finished");
    assertEquals(probes, 2);
    assertMatch(s.results(task.id)[1].sandbox, /^bwrap \(workspace-write/);
    assertMatch(s.results(task.id)[1].content, /two/);
    await s.toldWhen((e) => e.some((x) => x.kind === "sandbox"));
    assertEquals(s.told.filter((x) => x.kind === "sandbox"), [{
      kind: "sandbox",
      available: true,
    }]);
    const snap = await s.op<{ shellSandbox: string }>("settings.subscribe", {});
    assertEquals(snap.shellSandbox, "ok");
  } finally {
    await s.close();
  }
});

Deno.test("a probe that keeps failing: each task still asks before its first bare command", async () => {
  let probes = 0;
  const s = await services(TWO_COMMANDS, () => (probes++, Promise.resolve(DOWN)));
  try {
    const first = await s.op<{ task: { id: string } }>("tasks.create", {
      options: { model: s.ref, approval: "full" },
    });
    let waits = s.next(first.task.id);
    await s.op("task.send", { id: first.task.id, text: "one" });
    const ask1 = await waits;
    assert(ask1 !== "finished");
    assertEquals(ask1.kind, "unsandboxed");
    assert(s.deps.approvals!.decide(ask1.id, "reject"));

    s.clock.t += SANDBOX_RETRY_MS;
    const second = await s.op<{ task: { id: string } }>("tasks.create", {
      options: { model: s.ref, approval: "full" },
    });
    waits = s.next(second.task.id);
    await s.op("task.send", { id: second.task.id, text: "one" });
    const ask2 = await waits;
    assert(ask2 !== "finished", "a failed re-probe let a command run bare without asking");
    assertEquals([ask2.kind, ask2.unsandboxed], ["unsandboxed", "unavailable"]);
    assertEquals(probes, 2, "probed again before the command");
    assert(s.deps.approvals!.decide(ask2.id, "reject"));
    assertEquals(s.told.filter((x) => x.kind === "sandbox"), [], "nothing changed");
  } finally {
    await s.close();
  }
});
