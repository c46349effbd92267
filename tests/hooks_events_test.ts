/**
 * Hooks of the other events with the mock LLM: PermissionRequest and Notification around
 * an approval, a Stop hook that sends the model back to work, a sub-agent's calls,
 * PreCompact, and Claude Code's `file_path` in a file tool's payload.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { join } from "node:path";
import { entries, env } from "./helpers/agent_env.ts";
import {
  agentRequests,
  assertStringIncludes,
  execScenario,
  exists,
  hookNotes,
  run,
  userHooks,
  waitJson,
  workspace,
} from "./helpers/hooks_env.ts";

/** A PreToolUse hook that refuses every list_dir call. */
const NO_LISTING = {
  event: "PreToolUse",
  matcher: "list_dir",
  command: "echo 'listing is off-limits' >&2; exit 2",
};

Deno.test("PermissionRequest hooks answer the approval; PreToolUse approve spares it", async () => {
  const e = await env();
  const ws = await workspace();
  try {
    const allow = `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest",` +
      `"decision":{"behavior":"allow"}}}'`;
    await userHooks(e, [{ event: "PermissionRequest", matcher: "Bash", command: allow }]);
    const model = e.scenario(execScenario("touch allowed.txt"));
    const { task } = await run(e, model, ws, "go", "ask"); // ends without anyone answering
    assert(await exists(join(ws, "allowed.txt")), "the hook approved it");
    assertEquals(e.deps.approvals!.list().filter((p) => p.taskId === task.id), []);

    await userHooks(e, [{
      event: "PermissionRequest",
      command:
        `echo '{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"not on Fridays"}}}'`,
    }]);
    const denied = e.scenario(execScenario("touch denied.txt"));
    await run(e, denied, ws, "go", "ask");
    assert(!(await exists(join(ws, "denied.txt"))));
    assertStringIncludes(agentRequests(e, denied.modelId)[1], "not on Fridays");

    await userHooks(e, [{ event: "PreToolUse", command: `echo '{"decision":"approve"}'` }]);
    const approved = e.scenario(execScenario("touch pre-approved.txt"));
    await run(e, approved, ws, "go", "ask");
    assert(await exists(join(ws, "pre-approved.txt")), "approved by PreToolUse, not asked");
  } finally {
    await e.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("Notification hooks hear that the user is asked", async () => {
  const e = await env();
  const ws = await workspace();
  try {
    await userHooks(e, [{ event: "Notification", command: "cat > notified.json" }]);
    const model = e.scenario(execScenario("touch never.txt"));
    const { task } = e.deps.tasks!.create({
      message: "go",
      title: "hooks",
      projectPath: ws,
      options: { model, approval: "ask" },
    });
    const running = e.deps.runs!.start(task.id);
    // Parsed once the hook has written all of it.
    const payload = await waitJson(join(ws, "notified.json"));
    await e.deps.runs!.stop(task.id);
    await running;
    assertEquals(payload.hook_event_name, "Notification");
    assertMatch(String(payload.message), /needs your permission to use exec_command/);
    assert(!(await exists(join(ws, "never.txt"))));
  } finally {
    await e.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("a Stop hook that blocks sends the model back to work with its reason", async () => {
  const e = await env();
  const ws = await workspace();
  try {
    await userHooks(e, [{
      event: "Stop",
      // Claude Code's loop guard: only when not already continuing.
      command: `if grep -q '"stop_hook_active":false'; then ` +
        `echo '{"decision":"block","reason":"run the tests too"}'; fi`,
    }]);
    const model = e.scenario({
      turns: [{ text: "first answer" }, { text: "tests run" }, { text: "later" }],
    });
    const { task } = await run(e, model, ws, "do it");
    const reqs = agentRequests(e, model.modelId);
    assertEquals(reqs.length, 2, "one continuation, then the guard let it stop");
    assertStringIncludes(reqs[1], "Stop hook feedback:\\nrun the tests too");
    const list = entries(e, task.id);
    assertEquals(list.at(-1)!.parts[0].text, "tests run");
    assertEquals(hookNotes(list)[0].meta.level, "continue");
    // Kept in the conversation: the next turn's request still has it in place.
    e.deps.tasks!.send(task.id, "next");
    await e.deps.runs!.start(task.id);
    assertStringIncludes(agentRequests(e, model.modelId).at(-1)!, "run the tests too");
  } finally {
    await e.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("a sub-agent's tool calls pass the PreToolUse hooks too", async () => {
  const e = await env();
  const ws = await workspace();
  try {
    await userHooks(e, [NO_LISTING, {
      event: "SubagentStop",
      command: "cat > subagent-stop.json",
    }]);
    const model = e.scenario({
      turns: [
        {
          toolCalls: [{
            name: "agent",
            args: { description: "Look", prompt: "List the workspace.", subagent_type: "explorer" },
          }],
        },
        { text: "parent done" },
      ],
      branches: [{
        when: "type: explorer)",
        turns: [{ toolCalls: [{ name: "list_dir", args: { path: "." } }] }, { text: "report" }],
      }],
    });
    await run(e, model, ws, "delegate");
    // The sub-agent's second request carries the refusal of its list_dir call.
    const sub = agentRequests(e, model.modelId).filter((r) =>
      r.includes('"tool_call_id"') &&
      !r.includes('"name":"agent"')
    );
    assertEquals(sub.length, 1, "the sub-agent's request after its call");
    assertStringIncludes(sub[0], "A PreToolUse hook blocked this list_dir call");
    assertStringIncludes(sub[0], "listing is off-limits");
    const stop = await waitJson(join(ws, "subagent-stop.json"));
    assertEquals([stop.hook_event_name, stop.agent_type], ["SubagentStop", "explorer"]);
  } finally {
    await e.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("a turn's hook session goes with the turn; a background sub-agent keeps it until it ends", async () => {
  const e = await env();
  const ws = await workspace();
  try {
    await userHooks(e, [NO_LISTING]);
    const plain = e.scenario({ turns: [{ text: "hello" }] });
    const first = await run(e, plain, ws, "hi");
    // Kept, a session held its whole turn (~70 KB) until 200 other tasks pushed it out.
    assertEquals(e.deps.hooks!.of(first.task.id), undefined, "released with its turn");

    const model = e.scenario({
      turns: [
        {
          toolCalls: [{
            name: "agent",
            args: {
              description: "Look",
              prompt: "List the workspace.",
              subagent_type: "explorer",
              run_in_background: true,
            },
          }],
        },
        { text: "started it" },
      ],
      branches: [{
        when: "type: explorer)",
        turns: [
          { toolCalls: [{ name: "list_dir", args: { path: "." } }], delayMs: 300 },
          { text: "report" },
        ],
      }],
    });
    const { task } = await run(e, model, ws, "delegate");
    const subs = e.deps.runs!.subagents;
    assertEquals(subs.list(task.id)[0].status, "running", "still working after the turn");
    assert(e.deps.hooks!.of(task.id), "kept for the background sub-agent");
    const end = Date.now() + 10_000;
    while (subs.list(task.id)[0].status === "running") {
      assert(Date.now() < end, "the sub-agent ends");
      await new Promise((r) => setTimeout(r, 20));
    }
    // Its call after the turn's end still went through the PreToolUse hook.
    const sub = agentRequests(e, model.modelId).filter((r) =>
      r.includes('"tool_call_id"') && !r.includes('"name":"agent"')
    );
    assertStringIncludes(sub.at(-1)!, "listing is off-limits");
    await new Promise((r) => setTimeout(r, 20));
    assertEquals(e.deps.hooks!.of(task.id), undefined, "released once the sub-agent ended");
  } finally {
    await e.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("PreCompact hooks hear a compaction", async () => {
  const e = await env();
  const ws = await workspace();
  try {
    await userHooks(e, [{ event: "PreCompact", matcher: "manual", command: "cat > compact.json" }]);
    const model = e.scenario({
      turns: [{ text: "a long answer ".repeat(50) }, { text: "Summary of the work." }],
      repeatLast: true,
    });
    const { task } = await run(e, model, ws, "start");
    await e.deps.runs!.compact(task.id);
    const payload = await waitJson(join(ws, "compact.json"));
    assertEquals([payload.hook_event_name, payload.trigger], ["PreCompact", "manual"]);
  } finally {
    await e.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("file tools' tool_input carries Claude Code's absolute file_path too", async () => {
  const e = await env();
  const ws = await workspace();
  try {
    await userHooks(e, [{ event: "PostToolUse", matcher: "Write", command: "cat > post.json" }]);
    const model = e.scenario({
      turns: [
        { toolCalls: [{ name: "write_file", args: { path: "sub/b.txt", content: "hi" } }] },
        { text: "done" },
      ],
    });
    await run(e, model, ws, "write");
    const payload = await waitJson(join(ws, "post.json"));
    assertEquals(payload.tool_name, "write_file");
    assertEquals(payload.tool_input, {
      path: "sub/b.txt",
      content: "hi",
      file_path: join(ws, "sub/b.txt"),
    });
    assertEquals((payload.tool_response as { is_error: boolean }).is_error, false);
  } finally {
    await e.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("a turn reads its hooks once: a PreToolUse hook added during the turn runs from the next turn", async () => {
  const e = await env();
  const ws = await workspace();
  try {
    const model = e.scenario({
      turns: [
        // Slow enough for the hooks file to change while the first answer streams.
        {
          text: "Looking around first.",
          chunk: 2,
          delayMs: 40,
          toolCalls: [{ name: "list_dir", args: { path: "." } }],
        },
        { text: "done" },
      ],
    });
    const { task } = e.deps.tasks!.create({
      message: "go",
      title: "hooks",
      projectPath: ws,
      options: { model, approval: "full" },
    });
    const running = e.deps.runs!.start(task.id);
    const deadline = Date.now() + 10_000;
    while (agentRequests(e, model.modelId).length === 0) {
      assert(Date.now() < deadline, "the first request was sent");
      await new Promise((r) => setTimeout(r, 5));
    }
    await userHooks(e, [{ event: "PreToolUse", command: "touch hooked.txt" }]);
    await running;
    assert(!(await exists(join(ws, "hooked.txt"))), "not run in the turn that began without it");

    const again = e.scenario({
      turns: [{ toolCalls: [{ name: "list_dir", args: { path: "." } }] }, { text: "done" }],
    });
    await run(e, again, ws, "go on");
    assert(await exists(join(ws, "hooked.txt")), "the next turn runs it");
  } finally {
    await e.close();
    await Deno.remove(ws, { recursive: true });
  }
});
