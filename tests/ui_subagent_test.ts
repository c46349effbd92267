/** UI model of sub-agents: a sub-agent's approval shows on the parent's `agent` card. */
import { assertEquals } from "./helpers/assert.ts";
import { callKey, liveIndex } from "../ui/state/approval_model.js";

Deno.test("liveIndex: a sub-agent's approval is keyed by the parent's agent call", () => {
  const base = {
    taskId: "t1",
    taskTitle: "t",
    kind: "exec",
    summary: "",
    createdAt: 1,
    live: true,
  };
  const own = { ...base, id: "a1", call: { id: "c1", name: "exec_command", args: {} } };
  const sub = {
    ...base,
    id: "a2",
    // The sub-agent's own call id may equal one of the parent's: it must not match it.
    call: { id: "c9", name: "exec_command", args: {} },
    subagent: { runId: "sa1", type: "test-runner", description: "d", callId: "c2" },
  };
  const m = liveIndex([own, sub]);
  assertEquals(m.get(callKey("t1", "c1"))?.id, "a1");
  assertEquals(m.get(callKey("t1", "c2"))?.id, "a2");
  assertEquals(m.has(callKey("t1", "c9")), false);
});
