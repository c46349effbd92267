/** background_bash / task_output / task_stop with real child processes. */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import {
  backgroundBash,
  listJobs,
  onJobChange,
  RING_BYTES,
  stopAllJobs,
  stopJob,
  taskOutput,
  taskStop,
} from "../tools/exec/background.ts";

const ctx = async () => ({
  workspace: await Deno.makeTempDir(),
  signal: new AbortController().signal,
  sandbox: "off" as const,
});
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("background: start returns at once; output by offset; stop kills the group", async () => {
  const c = await ctx();
  const t0 = performance.now();
  const started = await backgroundBash.execute({
    command: "for i in 1 2 3; do echo tick$i; sleep 0.1; done; sleep 30",
  }, c);
  assert(performance.now() - t0 < 1000, "returned at once");
  const id = started.meta!.id as string;
  await wait(600);
  const first = await taskOutput.execute({ id }, c);
  assertMatch(first.content, /tick1\ntick2\ntick3/);
  assertMatch(first.content, /Status: running/);
  const next = first.meta!.next as number;
  const none = await taskOutput.execute({ id, offset: next }, c);
  assertMatch(none.content, /\(no new output\)/);
  const s0 = performance.now();
  const stopped = await taskStop.execute({ id }, c);
  assertMatch(stopped.content, /Stopped bg_/);
  assert(performance.now() - s0 < 3000, "TERM then KILL within 2 s");
  assertMatch((await taskOutput.execute({ id, offset: next }, c)).content, /Status: stopped/);
  assertMatch((await taskStop.execute({ id }, c)).content, /had already stopped/);
  assertMatch((await taskOutput.execute({ id: "bg_nope" }, c)).content, /No background command/);
});

Deno.test("background: exit code recorded; the ring buffer keeps the latest 256 KB and says what was dropped", async () => {
  const c = await ctx();
  const id = (await backgroundBash.execute({
    command: `head -c ${RING_BYTES + 50_000} /dev/zero | tr '\\0' 'x'; exit 3`,
  }, c)).meta!.id as string;
  let out = await taskOutput.execute({ id }, c);
  for (let i = 0; i < 50 && out.meta!.status === "running"; i++) {
    await wait(100);
    out = await taskOutput.execute({ id }, c);
  }
  assertEquals(out.meta!.status, "exited");
  assertEquals(out.meta!.exitCode, 3);
  assertMatch(out.content, /\[… 50000 bytes dropped from the 256 KB buffer …\]/);
  assertEquals(out.meta!.next, RING_BYTES + 50_000);
  await stopAllJobs();
});

Deno.test("background: the ring keeps bytes; an offset inside a character starts at the next one", async () => {
  const c = await ctx();
  // 3-byte characters and a ring size that is not a multiple of 3: the ring's oldest
  // byte is the last one of a character.
  const n = Math.floor(RING_BYTES / 3) + 10;
  const id = (await backgroundBash.execute({
    command: `for i in $(seq 1 ${n}); do printf '中'; done`,
  }, c)).meta!.id as string;
  let out = await taskOutput.execute({ id }, c);
  for (let i = 0; i < 100 && out.meta!.status === "running"; i++) {
    await wait(100);
    out = await taskOutput.execute({ id }, c);
  }
  const total = 3 * n;
  assertEquals((total - RING_BYTES) % 3, 2);
  assertEquals(out.meta!.next, total);
  assertMatch(out.content, new RegExp(`^\\[… ${total - RING_BYTES} bytes dropped`));
  const text = out.content.split("\n")[1];
  assert(!text.includes("\uFFFD"), "no broken character at the start");
  assertEquals(text, "中".repeat((RING_BYTES - 1) / 3));
  // An offset in the middle of the last but one character: the last one.
  const inside = await taskOutput.execute({ id, offset: total - 4 }, c);
  assertEquals(inside.content.split("\n")[0], "中");
  await stopAllJobs();
});

Deno.test("background: a job belongs to its task — another task's model can neither read nor stop it; the badge hears start, output and end", async () => {
  const base = await ctx();
  const owner = (taskId: string) => ({
    ...base,
    jobOwner: { taskId, recapture: () => Promise.resolve() },
  });
  const seen: { id: string; status: string; tail: string; taskId: string | null }[] = [];
  const off = onJobChange((j) => seen.push(j));
  try {
    const a = owner("task-a"), b = owner("task-b");
    const id = (await backgroundBash.execute({
      command: "echo secret-of-a; sleep 30",
    }, a)).meta!.id as string;
    await wait(1500);
    // Task B's model: the id is unknown to it.
    assertMatch((await taskOutput.execute({ id }, b)).content, /No background command/);
    assertMatch((await taskStop.execute({ id }, b)).content, /No background command/);
    assertEquals(await stopJob("task-b", id), null);
    assertEquals(listJobs("task-b"), []);
    // Task A sees it; the badge got the start and the output (within a second).
    assertEquals(listJobs("task-a").map((j) => j.id), [id]);
    assert(seen.some((j) => j.id === id && j.status === "running" && j.taskId === "task-a"));
    assert(seen.some((j) => j.id === id && j.tail.includes("secret-of-a")), JSON.stringify(seen));
    const stopped = await stopJob("task-a", id);
    assertEquals(stopped?.status, "stopped");
    await wait(50);
    assert(seen.some((j) => j.id === id && j.status === "stopped"), "no end event");
    assertEquals(listJobs("task-a")[0].status, "stopped");
  } finally {
    off();
    await stopAllJobs();
  }
});
