/**
 * `wait_for_task`: blocks until the task stops running (its run ended) or waits for a
 * decision (an approval or a question), or the timeout passes. Woken by the task and
 * approval events of the hub, with a slow poll as a safety net; the caller's cancel
 * (MCP `notifications/cancelled`, a closed connection) ends the wait at once.
 */
import type { OpPort } from "./op_port.ts";
import { McpOpError } from "./op_port.ts";

export type WaitOutcome = "finished" | "needs_decision" | "timeout" | "cancelled";

/** A queue that is about to be sent after a run that ended well is still work in progress. */
const QUEUE_GRACE_MS = 3000;
const POLL_MS = 1000;

async function settled(ops: OpPort, id: string, queueSeen: { at: number | null }) {
  const { tasks } = await ops.call("tasks.list");
  const t = tasks.find((x) => x.id === id);
  if (!t) throw new McpOpError("not_found", `task ${id} does not exist`);
  const { approvals } = await ops.call("approvals.list");
  if (t.status === "waiting" || approvals.some((a) => a.taskId === id)) {
    return "needs_decision" as const;
  }
  if (t.status === "running") return null;
  if (t.queued > 0 && t.lastRun === "done") {
    queueSeen.at ??= Date.now();
    if (Date.now() - queueSeen.at < QUEUE_GRACE_MS) return null;
  }
  return "finished" as const;
}

export function waitForTask(
  ops: OpPort,
  id: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<WaitOutcome> {
  return new Promise((resolve, reject) => {
    const queueSeen = { at: null as number | null };
    let checking = false;
    let again = false;
    let done = false;
    const finish = (o: WaitOutcome | Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(poll);
      off();
      signal?.removeEventListener("abort", onAbort);
      o instanceof Error ? reject(o) : resolve(o);
    };
    const check = async () => {
      if (done) return;
      if (checking) {
        again = true;
        return;
      }
      checking = true;
      try {
        do {
          again = false;
          const s = await settled(ops, id, queueSeen);
          if (s) return finish(s);
        } while (again && !done);
      } catch (e) {
        finish(e as Error);
      } finally {
        checking = false;
      }
    };
    const onAbort = () => finish("cancelled");
    const off = ops.onChange(() => void check());
    const timer = setTimeout(() => finish("timeout"), timeoutMs);
    const poll = setInterval(() => void check(), POLL_MS);
    if (signal?.aborted) return finish("cancelled");
    signal?.addEventListener("abort", onAbort);
    void check();
  });
}
