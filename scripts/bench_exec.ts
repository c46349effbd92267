/**
 * Memory of a command's output in the real server: `main.ts serve` runs a task whose
 * model (the mock LLM) calls exec_command on `yes | head -c 200000000`; the server's
 * anonymous RSS is sampled from outside every 3 ms and compared with its level just
 * before (after a warm-up command, so code paths are loaded). File-backed pages (Deno's
 * own code paged in) are left out: they are not memory the output costs.
 *
 *   deno run -A scripts/bench_exec.ts        (prints JSON; Linux only: reads /proc)
 */
import { startTestServer } from "../tests/helpers/server.ts";
import { TestClient } from "../tests/helpers/ws_client.ts";
import { homeWithProvider } from "../tests/helpers/seed.ts";
import { startMockLlm } from "./mock-llm.ts";
import type { Entry, TaskEvent } from "../protocol/index.ts";

export const BOMB_BYTES = 200_000_000;

export interface ExecRss {
  /** Anonymous RSS rise of the server (MB) at its peak while the command ran. */
  growthMb: number;
  /** RSS before the command (MB). */
  beforeMb: number;
  ms: number;
  /** The tool result the model got. */
  result: Entry;
}

const anonMb = (pid: number) =>
  Number(Deno.readTextFileSync(`/proc/${pid}/status`).match(/RssAnon:\s+(\d+)/)?.[1] ?? NaN) /
  1024;

/** Runs `command` (default: the 200 MB bomb) through a real server and measures it. */
/** `entry`: the program to run (default the source `main.ts`, as the tests; the bench runs the bundle). */
export async function measureExecRss(
  command = `yes | head -c ${BOMB_BYTES}`,
  entry?: string,
): Promise<ExecRss> {
  const mock = startMockLlm({ quiet: true });
  const call = (c: string) => ({
    turns: [{ toolCalls: [{ name: "exec_command", args: { command: c } }] }, { text: "ok" }],
  });
  mock.register("warm", call("yes | head -c 1000000"));
  mock.register("bomb", call(command));
  const home = await homeWithProvider(mock.base, ["warm", "bomb"], { defaultApproval: "full" });
  const s = await startTestServer({ home, ...(entry ? { entry } : {}) });
  const c = await TestClient.connect(s.base, s.token);
  const run = async (modelId: string) => {
    const { task } = await c.request("tasks.create", {
      title: modelId,
      message: "go",
      options: { model: { providerId: "mock", modelId } },
    });
    const topic = `task:${task.id}`;
    const ev = () => c.events.filter((e) => e.topic === topic).map((e) => e.data as TaskEvent);
    await c.until(
      () => ev().some((d) => d.kind === "run" && d.run === null),
      `${modelId} run ends`,
      60_000,
    );
    return ev().flatMap((d) => d.kind === "entry" && d.entry.role === "tool" ? [d.entry] : [])
      .at(-1)!;
  };
  try {
    await run("warm");
    await new Promise((r) => setTimeout(r, 500)); // let the warm-up's garbage go
    const before = anonMb(s.process.pid);
    let peak = before;
    const timer = setInterval(() => peak = Math.max(peak, anonMb(s.process.pid)), 3);
    const t0 = performance.now();
    const result = await run("bomb");
    const ms = Math.round(performance.now() - t0);
    clearInterval(timer);
    peak = Math.max(peak, anonMb(s.process.pid));
    return { growthMb: peak - before, beforeMb: before, ms, result };
  } finally {
    c.ws.close();
    await s.stop();
    await mock.close();
  }
}

if (import.meta.main) {
  const r = await measureExecRss();
  console.log(
    JSON.stringify({
      growthMb: +r.growthMb.toFixed(1),
      beforeMb: +r.beforeMb.toFixed(1),
      ms: r.ms,
    }),
  );
}
