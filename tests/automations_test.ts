/**
 * Automations: the next-run computation, the scheduler's one timer firing a
 * due automation into a real task against the mock LLM (a fake clock moved next to the
 * due time), missed runs not replayed after downtime, approvals that wait and notify,
 * validation, and the CLI (`automations add|list|run-now|remove`).
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { mockProvider } from "./helpers/seed.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { createServices } from "../server/services.ts";
import { localOpClient, type OpClient } from "../server/cli/op_client.ts";
import { nextRunAt } from "../server/automations/schedule.ts";
import { parseSchedule } from "../server/automations/schedule_text.ts";
import type { ServerDeps } from "../server/ops/context.ts";
import {
  type Automation,
  type AutomationRun,
  type EvtMsg,
  NOTICES_TOPIC,
  NOTIFY_TOPIC,
  presetRule,
  type ScheduleRule,
} from "../protocol/index.ts";
import { ROOT, RUN_FLAGS, startTestServer } from "./helpers/server.ts";
import { TestClient } from "./helpers/ws_client.ts";

const rule = (r: Partial<ScheduleRule>): ScheduleRule => ({
  unit: "daily",
  interval: 1,
  hour: 9,
  minute: 0,
  weekdays: [],
  monthDays: [],
  ...r,
});
const local = (y: number, mo: number, d: number, h = 0, mi = 0) =>
  new Date(y, mo - 1, d, h, mi).getTime();

Deno.test("nextRunAt: presets and custom rules, strictly after the moment", () => {
  // Thursday 2026-12-03 10:00 local.
  const at = local(2026, 12, 3, 10, 0);
  assertEquals(
    nextRunAt(rule({ hour: 9 }), at),
    local(2026, 12, 4, 9, 0),
    "daily 09:00 → tomorrow",
  );
  assertEquals(nextRunAt(rule({ hour: 11 }), at), local(2026, 12, 3, 11, 0), "daily 11:00 → today");
  assertEquals(
    nextRunAt(rule({ hour: 10 }), at),
    local(2026, 12, 4, 10, 0),
    "never the same moment",
  );
  assertEquals(
    nextRunAt(presetRule("weekdays", { hour: 8, minute: 30 }), local(2026, 12, 4, 9)),
    local(2026, 12, 7, 8, 30),
    "Friday after 08:30 → Monday",
  );
  assertEquals(
    nextRunAt(presetRule("weekly", { weekdays: [0], hour: 20 }), at),
    local(2026, 12, 6, 20, 0),
    "weekly on Sunday",
  );
  assertEquals(
    nextRunAt(presetRule("hourly", { minute: 15 }), at),
    local(2026, 12, 3, 10, 15),
  );
  assertEquals(nextRunAt(presetRule("hourly", { minute: 0 }), at), local(2026, 12, 3, 11, 0));
  // The 31st is skipped by months that lack it (November 2026 has 30 days).
  assertEquals(
    nextRunAt(rule({ unit: "monthly", monthDays: [31], hour: 12 }), local(2026, 11, 1)),
    local(2026, 12, 31, 12, 0),
  );
  // Every 15 minutes, on the quarter hours.
  const q = nextRunAt(rule({ unit: "minute", interval: 15 }), at + 60_000)!;
  assertEquals(q - (at + 60_000) <= 15 * 60_000 && q % (15 * 60_000) === 0, true);
  // Every 2 weeks keeps its rhythm: two consecutive runs are 14 days apart.
  const biweekly = rule({ unit: "weekly", interval: 2, weekdays: [1], hour: 9 });
  const first = nextRunAt(biweekly, at)!;
  const second = nextRunAt(biweekly, first)!;
  assertEquals(Math.round((second - first) / 86_400_000), 14);
});

Deno.test("parseSchedule: the CLI's words for presets and custom rules", () => {
  assertEquals(parseSchedule("daily 09:30"), rule({ hour: 9, minute: 30 }));
  assertEquals(
    parseSchedule("weekdays 08:00"),
    rule({ unit: "weekly", weekdays: [1, 2, 3, 4, 5], hour: 8 }),
  );
  assertEquals(
    parseSchedule("weekly mon,fri 18:05"),
    rule({ unit: "weekly", weekdays: [1, 5], hour: 18, minute: 5 }),
  );
  assertEquals(parseSchedule("hourly :45"), rule({ unit: "hourly", hour: 0, minute: 45 }));
  assertEquals(parseSchedule("every 30m"), rule({ unit: "minute", interval: 30, hour: 0 }));
  assertEquals(
    parseSchedule("every 2 mo 1,15 07:00"),
    rule({ unit: "monthly", interval: 2, monthDays: [1, 15], hour: 7 }),
  );
  for (const bad of ["yearly", "daily 25:00", "weekly 09:00", "every 0m", "daily 9:00 extra"]) {
    assert("error" in parseSchedule(bad), bad);
  }
});

interface Rig {
  deps: ServerDeps;
  ops: OpClient;
  events: EvtMsg[];
  /** Moves the fake clock (ms added to the real one). */
  shift(ms: number): void;
  close(): Promise<void>;
}

const clock = { offset: 0 };
const now = () => Date.now() + clock.offset;

function rig(home: string): Rig {
  const deps = createServices({ home, now, flushMs: 5 });
  const events: EvtMsg[] = [];
  deps.hub.add({
    id: "watcher",
    topics: new (class extends Set<string> {
      override has() {
        return true;
      }
    })(),
    deliver: (e) => void events.push(...e),
  });
  deps.automations!.start();
  const ops = localOpClient(deps);
  return {
    deps,
    ops,
    events,
    shift: (ms) => void (clock.offset += ms),
    async close() {
      deps.automations!.stop();
      await ops.close();
    },
  };
}

async function until<T>(what: string, fn: () => T | undefined | null, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function homeWithMock(mock: ReturnType<typeof startMockLlm>, modelId: string) {
  const home = await Deno.makeTempDir({ prefix: "ra-auto-" });
  await Deno.mkdir(`${home}/DefaultProject`);
  const deps = createServices({ home });
  deps.store.repos!.providers.put(mockProvider(mock.base, [modelId]));
  deps.store.close();
  return home;
}

Deno.test("a due automation: the timer fires, a task is created with its model and mode, the prompt runs against the mock LLM", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("auto-1", {
    turns: [{ text: "Automated hello", usage: { input: 12, output: 3 } }],
  });
  const home = await homeWithMock(mock, "auto-1");
  const r = rig(home);
  try {
    const { automation } = await r.ops.request<{ automation: Automation }>("automations.create", {
      name: "Morning report",
      prompt: "Summarise the repository",
      rule: rule({ hour: 7, minute: 0 }),
      model: { providerId: "mock", modelId: "auto-1" },
    });
    assertEquals(automation.approval, "edit", "default mode is edit, not full");
    assert(
      !r.deps.hub.list().some((c) => c.id === "automations"),
      "the scheduler listens without counting as a connected client",
    );
    assert(automation.nextRunAt! > now(), "next run in the future");
    // Nothing ran yet.
    assertEquals(r.deps.store.repos!.automations.runs(automation.id, 10), []);
    // The fake clock is moved to 80 ms before the due time; a change re-arms the one timer,
    // which then fires on its own when the time comes.
    clock.offset += automation.nextRunAt! - now() - 80;
    await r.ops.request("automations.update", { id: automation.id, name: "Morning report" });
    const run = await until("the run to end", () => {
      const runs = r.deps.store.repos!.automations.runs(automation.id, 10);
      return runs[0] && runs[0].status !== "running" ? runs[0] : null;
    });
    assertEquals(run.status, "done", run.error ?? "");
    assertEquals(run.trigger, "schedule");
    assert(run.taskId);
    const task = r.deps.store.repos!.tasks.get(run.taskId)!;
    assertEquals(task.title, "Morning report");
    assertEquals(task.settings.approval, "edit");
    assertEquals(task.settings.model, { providerId: "mock", modelId: "auto-1" });
    const entries = r.deps.store.repos!.entries.latest(run.taskId, 50);
    assertEquals(entries.map((e) => e.role), ["user", "assistant"]);
    assertEquals(entries[0].parts[0].text, "Summarise the repository");
    assertEquals(entries[1].parts.map((p) => p.text).join(""), "Automated hello");
    const after = r.deps.store.repos!.automations.get(automation.id)!;
    assertEquals(after.runCount, 1);
    assert(after.nextRunAt! > automation.nextRunAt!, "the next run is the following day");
    // The page hears the run start and end on the automations topic.
    const runEvents = r.events.filter((e) =>
      e.topic === "automations" && (e.data as { kind: string }).kind === "run"
    );
    assert(runEvents.length >= 2);
  } finally {
    await r.close();
    await mock.close();
  }
});

Deno.test("missed runs are not replayed after downtime: recorded once as missed, next run from now", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("auto-2", { turns: [{ text: "should not run" }] });
  const home = await homeWithMock(mock, "auto-2");
  let r = rig(home);
  let id = "";
  try {
    const { automation } = await r.ops.request<{ automation: Automation }>("automations.create", {
      name: "Every hour",
      prompt: "ping",
      rule: presetRule("hourly", { minute: 0 }),
      model: { providerId: "mock", modelId: "auto-2" },
    });
    id = automation.id;
    await r.close();
    // The server is down for three days (72 due times pass).
    clock.offset += 3 * 86_400_000;
    r = rig(home);
    const runs = r.deps.store.repos!.automations.runs(id, 10);
    assertEquals(runs.length, 1, "one record, not 72 runs");
    assertEquals(runs[0].status, "missed");
    assertEquals(runs[0].taskId, null);
    const a = r.deps.store.repos!.automations.get(id)!;
    assert(a.nextRunAt! > now() && a.nextRunAt! - now() <= 3_600_000, "next run within the hour");
    await new Promise((res) => setTimeout(res, 200));
    assertEquals(r.deps.store.repos!.tasks.list().length, 0, "no task was created");
    assertEquals(mock.requests().length, 0, "the model was never asked");
  } finally {
    await r.close();
    await mock.close();
  }
});

Deno.test("an automation in ask mode waits for approval and notifies like any task; run-now and validation", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("auto-3", {
    turns: [
      { toolCalls: [{ name: "write_file", args: { path: "out.txt", content: "hi" } }] },
      { text: "written" },
    ],
  });
  const home = await homeWithMock(mock, "auto-3");
  const r = rig(home);
  try {
    const { automation } = await r.ops.request<{ automation: Automation }>("automations.create", {
      name: "Careful",
      prompt: "write out.txt",
      rule: rule({}),
      model: { providerId: "mock", modelId: "auto-3" },
      approval: "ask",
    });
    const { run } = await r.ops.request<{ run: AutomationRun }>("automations.runNow", {
      id: automation.id,
    });
    assertEquals(run.trigger, "manual");
    const taskId = run.taskId!;
    const notified = await until(
      "a waiting notification",
      () =>
        r.events.find((e) =>
          e.topic === NOTIFY_TOPIC &&
          (e.data as { event?: { kind: string; taskId: string } }).event?.kind === "waiting" &&
          (e.data as { event: { taskId: string } }).event.taskId === taskId
        ),
    );
    assert(notified);
    assertEquals(r.deps.store.repos!.automations.getRun(run.id)!.status, "running");
    const busy = await r.ops.request("automations.runNow", { id: automation.id }).catch((e) => e);
    assertEquals(busy.code, "busy");
    const { approvals } = await r.ops.request("approvals.list");
    await r.ops.request("approval.decide", { id: approvals[0].id, decision: "allow" });
    const done = await until("the run to end", () => {
      const x = r.deps.store.repos!.automations.getRun(run.id)!;
      return x.status !== "running" ? x : null;
    });
    assertEquals(done.status, "done");
    // The schedule was not moved by run-now.
    assertEquals(
      r.deps.store.repos!.automations.get(automation.id)!.nextRunAt,
      automation.nextRunAt,
    );

    // Validation: each refusal is clear and stores nothing.
    const bad = (args: unknown) => r.ops.request("automations.create", args).catch((e) => e);
    const base = { name: "x", prompt: "y" };
    assertEquals((await bad({ ...base, rule: rule({ unit: "weekly" }) })).code, "invalid_args");
    assertEquals((await bad({ ...base, rule: rule({ hour: 24 }) })).code, "invalid_args");
    assertEquals(
      (await bad({ ...base, rule: rule({}), projectPath: `${home}/missing` })).code,
      "not_found",
    );
    assertEquals(
      (await bad({ ...base, rule: rule({}), model: { providerId: "mock", modelId: "nope" } })).code,
      "invalid_args",
    );
    assertEquals((await bad({ ...base, rule: rule({}), approval: "yolo" })).code, "invalid_args");
    assertEquals(r.deps.store.repos!.automations.count(), 1);
    // Disabled: no next run; deleted: its history goes with it.
    const { automation: off } = await r.ops.request("automations.update", {
      id: automation.id,
      enabled: false,
    });
    assertEquals(off.nextRunAt, null);
    await r.ops.request("automations.delete", { id: automation.id });
    assertEquals(r.deps.store.repos!.automations.runs(null, 10), []);
  } finally {
    await r.close();
    await mock.close();
  }
});

Deno.test("CLI: automations add, list, run-now (in this process, waits for the end), remove", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-auto-cli-" });
  const cli = async (...args: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [...RUN_FLAGS, `${ROOT}main.ts`, "automations", ...args, "--home", home],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    return {
      code: out.code,
      out: new TextDecoder().decode(out.stdout),
      err: new TextDecoder().decode(out.stderr),
    };
  };
  const added = await cli("add", "List the files", "--schedule", "weekly mon,fri 09:30", "--json");
  assertEquals(added.code, 0, added.err);
  const a = JSON.parse(added.out) as Automation;
  assertEquals(a.rule.weekdays, [1, 5]);
  assertEquals(a.approval, "edit");
  const bad = await cli("add", "x", "--schedule", "daily 25:00");
  assertEquals(bad.code, 2);
  assert(bad.err.includes("not a time of day"), bad.err);
  const listed = await cli("list");
  assertEquals(listed.code, 0, listed.err);
  assert(listed.out.includes(a.id) && listed.out.includes("weekly mon,fri at 09:30"), listed.out);
  // The built-in demo model answers (no account needed).
  const ran = await cli("run-now", a.id, "--json");
  assertEquals(ran.code, 0, ran.err);
  const run = JSON.parse(ran.out) as AutomationRun;
  assertEquals(run.status, "done");
  assert(run.taskId);
  const removed = await cli("remove", a.id);
  assertEquals(removed.code, 0, removed.err);
  assert((await cli("list")).out.includes("No automations yet."));
});

Deno.test("an automation in full mode is announced as lowered safety; deleting its running task ends the run as stopped", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("auto-4", { turns: [{ text: "slow answer", chunk: 1, delayMs: 30 }] });
  const home = await homeWithMock(mock, "auto-4");
  const r = rig(home);
  try {
    const { automation } = await r.ops.request<{ automation: Automation }>("automations.create", {
      name: "Unattended",
      prompt: "go",
      rule: rule({}),
      model: { providerId: "mock", modelId: "auto-4" },
      approval: "full",
    });
    const { run } = await r.ops.request<{ run: AutomationRun }>("automations.runNow", {
      id: automation.id,
    });
    const task = r.deps.store.repos!.tasks.get(run.taskId!)!;
    assertEquals(task.settings.approval, "full");
    const notice = await until(
      "a safety notice",
      () =>
        r.events.find((e) =>
          e.topic === NOTICES_TOPIC &&
          JSON.stringify(e.data).includes(`"taskId":"${task.id}"`) &&
          JSON.stringify(e.data).includes('"to":"full"')
        ),
    );
    assert(notice);
    assertEquals((notice.data as { by: { browser: string } }).by.browser, "Automation");
    // The task is deleted while it runs: its run record ends, it does not stay "running".
    await until("the run to start", () => r.deps.runs!.isRunning(task.id));
    await r.ops.request("tasks.delete", { id: task.id });
    const ended = await until("the run to end", () => {
      const x = r.deps.store.repos!.automations.getRun(run.id)!;
      return x.status !== "running" ? x : null;
    });
    assertEquals(ended.status, "stopped");
  } finally {
    await r.close();
    await mock.close();
  }
});

Deno.test("CLI against a running server: the automation is added there (its windows hear it) and run-now runs in the server", async () => {
  const server = await startTestServer();
  const ws = await TestClient.connect(server.base, server.token);
  try {
    await ws.request("automations.list"); // this client hears the automations topic
    const cli = async (...args: string[]) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: [...RUN_FLAGS, `${ROOT}main.ts`, "automations", ...args, "--home", server.home],
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      return { code: out.code, out: new TextDecoder().decode(out.stdout) };
    };
    const added = await cli("add", "Say hello", "--schedule", "every 30m", "--json");
    assertEquals(added.code, 0);
    const a = JSON.parse(added.out) as Automation;
    await ws.until(
      () =>
        ws.events.some((e) => e.topic === "automations" && JSON.stringify(e.data).includes(a.id)),
      "the server's clients hear the new automation",
    );
    const ran = await cli("run-now", a.id, "--json");
    assertEquals(ran.code, 0);
    const run = JSON.parse(ran.out) as AutomationRun;
    assert(run.taskId, "the server created the task");
    await ws.until(
      () =>
        ws.events.some((e) =>
          e.topic === "automations" && (e.data as { run?: AutomationRun }).run?.id === run.id &&
          (e.data as { run: AutomationRun }).run.status === "done"
        ),
      "the run ends in the server",
      20_000,
    );
  } finally {
    await ws.close();
    await server.stop();
  }
});
