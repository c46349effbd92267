/**
 * Hooks with the mock LLM: real hook commands (sh), real runs, the requests
 * the model received. Covers blocking, trust bound to the config's fingerprint, context
 * reaching the request, failures noted on the turn and the sandbox around hooks.
 * (The other events: hooks_events_test.ts.)
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
  workspace,
  workspaceHooks,
} from "./helpers/hooks_env.ts";
import { sandboxStatus } from "../tools/exec/bwrap.ts";
import { trust } from "../server/agent/hooks/trust.ts";
import { workspaceSource } from "../server/agent/hooks/sources.ts";
import { parseHooks, readHookFile } from "../server/agent/hooks/config.ts";
import { readAnswer } from "../server/agent/hooks/run_hook.ts";
import type { EvtMsg } from "../protocol/index.ts";

const bwrap = await sandboxStatus();

Deno.test("a PreToolUse hook blocks exec_command and its reason reaches the model", async () => {
  const e = await env();
  const ws = await workspace();
  try {
    await userHooks(e, [{
      event: "PreToolUse",
      matcher: "Bash", // Claude Code's name for exec_command
      command: "cat > hook-payload.json; echo 'no shell in this repo' >&2; exit 2",
    }]);
    const model = e.scenario(execScenario("touch ran.txt"));
    const { task, outcome } = await run(e, model, ws, "touch a file");
    assertEquals(outcome?.kind, "done");
    assert(!(await exists(join(ws, "ran.txt"))), "the command did not run");
    const second = agentRequests(e, model.modelId)[1];
    assertStringIncludes(second, "A PreToolUse hook blocked this exec_command call");
    assertStringIncludes(second, "no shell in this repo");
    const tool = entries(e, task.id).find((x) => x.role === "tool")!;
    assertEquals(
      (tool.parts[0].data?.meta as { refusal: unknown }).refusal,
      { code: "hook_blocked", params: { event: "PreToolUse", reason: "no shell in this repo" } },
    );
    // Claude Code's payload shape.
    const payload = JSON.parse(await Deno.readTextFile(join(ws, "hook-payload.json")));
    assertEquals(payload.hook_event_name, "PreToolUse");
    assertEquals(payload.session_id, task.id);
    assertEquals(payload.cwd, ws);
    assertEquals(payload.transcript_path, "");
    assertEquals(payload.permission_mode, "bypassPermissions");
    assertEquals(payload.tool_name, "exec_command");
    assertEquals(payload.tool_input, { command: "touch ran.txt" });
    assertEquals(payload.tool_use_id, "call_1");
  } finally {
    await e.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("JSON decisions: permissionDecision deny blocks; a non-matching matcher does not run", async () => {
  const e = await env();
  const ws = await workspace();
  try {
    await userHooks(e, [
      { event: "PreToolUse", matcher: "read_file|Write", command: "touch wrong-matcher" },
      {
        event: "PreToolUse",
        matcher: "exec_.*",
        command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse",` +
          `"permissionDecision":"deny","permissionDecisionReason":"use the file tools"}}'`,
      },
      { event: "PostToolUse", command: "touch post-ran" },
    ]);
    const model = e.scenario(execScenario("touch ran.txt"));
    await run(e, model, ws, "go");
    assert(!(await exists(join(ws, "ran.txt"))));
    assert(!(await exists(join(ws, "wrong-matcher"))), "matcher is anchored to the tool name");
    assert(!(await exists(join(ws, "post-ran"))), "PostToolUse runs only for calls that ran");
    assertStringIncludes(agentRequests(e, model.modelId)[1], "use the file tools");
  } finally {
    await e.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("an untrusted workspace hook does not run until trusted; a config change asks again", async () => {
  const e = await env();
  const ws = await workspace();
  try {
    const blocker = { event: "PreToolUse", command: "touch hook-ran; echo nope >&2; exit 2" };
    await workspaceHooks(ws, [blocker]);
    const model = e.scenario({ ...execScenario("touch ran-1.txt"), repeatLast: false });
    const first = await run(e, model, ws, "one");
    assert(!(await exists(join(ws, "hook-ran"))), "untrusted hook did not run");
    assert(await exists(join(ws, "ran-1.txt")), "the command ran without it");
    const notes = hookNotes(entries(e, first.task.id));
    assertEquals(notes.length, 1, "told once per turn");
    assertEquals(notes[0].meta.level, "untrusted");
    assertMatch(notes[0].parts[0].text!, /did not run: they are not trusted yet/);
    e.deps.hub.flush();
    assert(
      e.events.some((x: EvtMsg) => x.topic === "hooks"),
      "clients were told (the trust banner asks)",
    );

    // Trusted for exactly these hooks: they run.
    const src = await workspaceSource(e.deps.home, ws);
    assertEquals(src?.state, "untrusted");
    await trust(e.deps.home, ws, src!.fingerprint, src!.hooks);
    assertEquals((await workspaceSource(e.deps.home, ws))?.state, "trusted");
    const model2 = e.scenario(execScenario("touch ran-2.txt"));
    await run(e, model2, ws, "two");
    assert(await exists(join(ws, "hook-ran")), "trusted hook ran");
    assert(!(await exists(join(ws, "ran-2.txt"))), "and blocked");

    // The config changes (e.g. the agent edits it to get rid of the hook): the new hooks
    // do not run, the trusted ones still do until the change is reviewed.
    await Deno.remove(join(ws, "hook-ran"));
    await workspaceHooks(ws, [{ event: "PreToolUse", command: "touch new-hook-ran" }]);
    const changed = await workspaceSource(e.deps.home, ws);
    assertEquals(changed?.state, "changed");
    assertEquals(changed?.trustedHooks?.map((h) => h.command), [blocker.command]);
    const model3 = e.scenario(execScenario("touch ran-3.txt"));
    const third = await run(e, model3, ws, "three");
    assert(!(await exists(join(ws, "new-hook-ran"))), "the changed hooks did not run");
    assert(await exists(join(ws, "hook-ran")), "the trusted copy still ran");
    assert(!(await exists(join(ws, "ran-3.txt"))), "and still blocked");
    assertMatch(
      hookNotes(entries(e, third.task.id))[0].parts[0].text!,
      /changed since you trusted them \(1 now\); the new ones did not run\. The 1 hook\(s\) you trusted before still run/,
    );

    // Broken or removed: the trusted copy keeps running too.
    for (const spoil of ["{ broken", null]) {
      await Deno.remove(join(ws, "hook-ran"));
      if (spoil) await Deno.writeTextFile(join(ws, ".reinagent", "config.json"), spoil);
      else await Deno.remove(join(ws, ".reinagent", "config.json"));
      const m = e.scenario(execScenario("touch spoiled.txt"));
      await run(e, m, ws, "again");
      assert(await exists(join(ws, "hook-ran")), `trusted copy ran (${spoil ?? "removed"})`);
      assert(!(await exists(join(ws, "spoiled.txt"))));
    }

    // Reviewing the removal (trusting "no hooks") forgets the copy.
    const removed = (await workspaceSource(e.deps.home, ws))!;
    assertEquals([removed.state, removed.hooks.length], ["changed", 0]);
    await trust(e.deps.home, ws, removed.fingerprint, removed.hooks);
    assertEquals(await workspaceSource(e.deps.home, ws), null);
  } finally {
    await e.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("UserPromptSubmit and SessionStart context reach the request (and the next one)", async () => {
  const e = await env();
  const ws = await workspace();
  try {
    await userHooks(e, [
      {
        event: "UserPromptSubmit",
        command: 'cat > prompt-payload.json; echo \'{"hookSpecificOutput":' +
          '{"hookEventName":"UserPromptSubmit","additionalContext":"CTX-PROMPT-42"}}\'',
      },
      // Plain stdout of SessionStart is context too (as in Claude Code).
      { event: "SessionStart", matcher: "startup", command: "echo CTX-SESSION-7" },
    ]);
    const model = e.scenario({ turns: [{ text: "ok" }], repeatLast: true });
    const { task } = await run(e, model, ws, "hello there");
    const [req] = agentRequests(e, model.modelId);
    assertStringIncludes(req, "CTX-PROMPT-42");
    assertStringIncludes(req, "CTX-SESSION-7");
    const payload = JSON.parse(await Deno.readTextFile(join(ws, "prompt-payload.json")));
    assertEquals([payload.hook_event_name, payload.prompt], ["UserPromptSubmit", "hello there"]);
    // Kept with the message: a later turn's request still carries it (SessionStart only once).
    await Deno.remove(join(ws, "prompt-payload.json"));
    e.deps.tasks!.send(task.id, "second");
    await e.deps.runs!.start(task.id);
    const next = agentRequests(e, model.modelId).at(-1)!;
    assertEquals(next.split("CTX-PROMPT-42").length - 1, 2, "both prompts' context");
    assertEquals(next.split("CTX-SESSION-7").length - 1, 1, "the session's once");
  } finally {
    await e.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("a UserPromptSubmit hook that blocks keeps the prompt from the model", async () => {
  const e = await env();
  const ws = await workspace();
  try {
    await userHooks(e, [{
      event: "UserPromptSubmit",
      command: `echo '{"decision":"block","reason":"no secrets in prompts"}'`,
    }]);
    const model = e.scenario({ turns: [{ text: "ok" }] });
    const { task } = await run(e, model, ws, "my password is hunter2");
    assertEquals(e.deps.store.repos!.tasks.get(task.id)!.lastRun, "stopped");
    assertEquals(e.mock.requests(model.modelId).length, 0, "nothing reached the model");
    const notes = hookNotes(entries(e, task.id));
    assertMatch(notes.at(-1)!.parts[0].text!, /blocked this prompt: no secrets in prompts/);
    // Not later either: the next message's request does not carry the blocked one.
    await userHooks(e, []);
    e.deps.tasks!.send(task.id, "what is 2+2?");
    await e.deps.runs!.start(task.id);
    const [req] = agentRequests(e, model.modelId);
    assertStringIncludes(req, "what is 2+2?");
    assert(!req.includes("hunter2"), "the blocked prompt never reached the model");
  } finally {
    await e.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("a hook that times out or crashes is shown on the turn; the run goes on", async () => {
  const e = await env();
  const ws = await workspace();
  try {
    await userHooks(e, [
      { event: "PreToolUse", command: "sleep 5", timeoutMs: 300 },
      { event: "PostToolUse", command: "echo 'boom: missing tool' >&2; exit 3" },
      { event: "Stop", command: "echo '{not json'" },
    ]);
    const model = e.scenario(execScenario("touch ran.txt"));
    const { task, outcome } = await run(e, model, ws, "go");
    assertEquals(outcome?.kind, "done");
    assert(await exists(join(ws, "ran.txt")), "failed hooks decide nothing");
    const texts = hookNotes(entries(e, task.id)).map((n) => [n.meta.level, n.parts[0].text]);
    assertEquals(texts.map((t) => t[0]), ["failure", "failure", "failure"]);
    assertMatch(String(texts[0][1]), /PreToolUse hook failed: timed out after 0\.3 s/);
    assertMatch(
      String(texts[1][1]),
      /PostToolUse hook failed: exited with code 3: boom: missing tool/,
    );
    assertMatch(String(texts[2][1]), /Stop hook failed: printed JSON that does not parse/);
  } finally {
    await e.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test({
  name: "a hook runs in the command sandbox: the data folder and its token are out of reach",
  ignore: !bwrap.available,
  async fn() {
    const e = await env();
    const ws = await workspace();
    try {
      const token = "tok-" + crypto.randomUUID();
      await Deno.writeTextFile(join(e.deps.home, "token"), token);
      // A secret in the server's environment is withheld as from commands.
      const secret = "sec-" + crypto.randomUUID();
      Deno.env.set("RA_HOOKS_TEST_API_TOKEN", secret);
      await userHooks(e, [{
        event: "UserPromptSubmit",
        command:
          `{ cat '${e.deps.home}/token'; ls -a '${e.deps.home}'; cat '${e.deps.home}/config.json'; env; } > seen.txt 2>&1; exit 0`,
      }]);
      const model = e.scenario({ turns: [{ text: "ok" }] });
      await run(e, model, ws, "hi");
      const seen = await Deno.readTextFile(join(ws, "seen.txt"));
      assert(!seen.includes(token), "the token was not readable");
      assert(!seen.includes("reinagent.db"), "the data folder is hidden");
      assert(!seen.includes("UserPromptSubmit"), "the config itself is hidden too");
      assertStringIncludes(seen, `CLAUDE_PROJECT_DIR=${ws}`);
      assert(!seen.includes(secret), "the secret variable was withheld");
    } finally {
      Deno.env.delete("RA_HOOKS_TEST_API_TOKEN");
      await e.close();
      await Deno.remove(ws, { recursive: true });
    }
  },
});

Deno.test("config: both shapes, Claude Code's timeout in seconds, problems reported whole", async () => {
  const claude = parseHooks({
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "x", timeout: 5 }] }],
  });
  assertEquals(claude, {
    hooks: [{ event: "PreToolUse", matcher: "Bash", command: "x", timeoutMs: 5000 }],
  });
  assertEquals(parseHooks([{ event: "Stop", command: "y" }]), {
    hooks: [{ event: "Stop", matcher: "", command: "y", timeoutMs: 60_000 }],
  });
  assertMatch((parseHooks([{ event: "Nope", command: "y" }]) as { error: string }).error, /event/);
  assertMatch((parseHooks([{ event: "Stop", command: "" }]) as { error: string }).error, /command/);
  assertMatch(
    (parseHooks([{ event: "Stop", matcher: "(", command: "y" }]) as { error: string }).error,
    /matcher/,
  );
  assertMatch(
    (parseHooks([{ event: "Stop", command: "y", timeoutMs: 1e9 }]) as { error: string }).error,
    /timeout/,
  );
  const dir = await Deno.makeTempDir();
  try {
    const p = join(dir, "config.json");
    await Deno.writeTextFile(p, "{ broken");
    const r = await readHookFile(p);
    assert(r && !r.ok);
    assertMatch(r.error, /not valid JSON/);
    assertEquals(await Deno.readTextFile(p), "{ broken", "never rewritten");
    assertEquals(await readHookFile(join(dir, "missing.json")), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  assertEquals(readAnswer("UserPromptSubmit", "plain").context, "plain");
  assertEquals(readAnswer("PreToolUse", "plain").context, "");
  assertEquals(readAnswer("PreToolUse", `{"decision":"approve"}`).decision, "approve");
  assertEquals(
    readAnswer(
      "PermissionRequest",
      `{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"m"}}}`,
    ),
    { decision: "block", reason: "m", context: "", message: "", failure: null },
  );
});
