import { SafetyLog } from "../server/sessions/safety.ts";
import { assert, assertEquals } from "./helpers/assert.ts";
import { LIMITS, OP_ARGS, parseRequest, validateArgs } from "../protocol/index.ts";
import { runOp } from "../server/ops/dispatch.ts";
import { Store } from "../store/store.ts";
import { EventHub, type HubClient } from "../server/sessions/hub.ts";
import { createServices } from "../server/services.ts";
import type { OpContext } from "../server/ops/context.ts";
import { localOpClient } from "../server/cli/op_client.ts";

async function context(): Promise<OpContext> {
  const client: HubClient = { id: "c", topics: new Set(["tasks"]), deliver: () => {} };
  return { ...createServices({ home: await Deno.makeTempDir(), flushMs: 1 }), client };
}

Deno.test("parseRequest: malformed frames get typed errors", () => {
  assertEquals((parseRequest("{") as { error: { code: string } }).error.code, "bad_request");
  assertEquals(
    (parseRequest('{"t":"evt","id":1}') as { error: { code: string } }).error.code,
    "bad_request",
  );
  assertEquals(
    (parseRequest('{"t":"req","id":-3,"op":"x"}') as { error: { code: string } }).error.code,
    "bad_request",
  );
  assertEquals((parseRequest('{"t":"req","id":2,"op":5}') as { id: number }).id, 2);
  const big = JSON.stringify({
    t: "req",
    id: 1,
    op: "x",
    args: { s: "a".repeat(LIMITS.frameBytes) },
  });
  assertEquals((parseRequest(big) as { error: { code: string } }).error.code, "too_large");
  assert("req" in parseRequest('{"t":"req","id":1,"op":"tasks.list","args":{}}'));
});

Deno.test("validateArgs: wrong types, missing and unknown fields, sizes, patterns", () => {
  assertEquals(validateArgs("tasks.list", {}), []);
  assertEquals(validateArgs("tasks.rename", { id: "a" }), ["args.title is required"]);
  assertEquals(validateArgs("tasks.rename", { id: "a", title: 3 }), [
    "args.title must be a string, got number",
  ]);
  assertEquals(validateArgs("tasks.pin", { id: "a", pinned: "yes" }), [
    "args.pinned must be a boolean, got string",
  ]);
  assertEquals(validateArgs("tasks.list", { extra: 1 }), ["args.extra is not a known field"]);
  assertEquals(validateArgs("tasks.rename", { id: "../x", title: "t" }), [
    "args.id has an invalid format",
  ]);
  assertEquals(validateArgs("tasks.rename", { id: "a", title: "" }), [
    "args.title must have at least 1 characters",
  ]);
  assert(
    validateArgs("task.send", { id: "a", text: "x".repeat(LIMITS.messageChars + 1) })[0].includes(
      "at most",
    ),
  );
  assertEquals(validateArgs("tasks.create", { projectPath: null }), []);
  assertEquals(validateArgs("tasks.list", []), ["args must be an object, got array"]);
  assertEquals(validateArgs("kv.set", { key: "secret.provider", value: 1 }), [
    "args.key has an invalid format",
  ]);
  assert(
    validateArgs("kv.set", { key: "ui.x", value: "v".repeat(LIMITS.kvValueBytes) })[0].includes(
      "too large",
    ),
  );
  assertEquals(validateArgs("kv.set", { key: "ui.x" }), ["args.value is required"]);
  assert(
    validateArgs("events.resume", { epoch: "e", afterSeq: 1.5, topics: [] })[0].includes("integer"),
  );
});

Deno.test("every op has a schema and a handler", async () => {
  const ctx = await context();
  for (const op of Object.keys(OP_ARGS)) {
    const out = await runOp(ctx, op, { __nope: 1 });
    assertEquals(out.ok, false, op);
    if (!out.ok) assertEquals(out.error.code, "invalid_args", op);
  }
});

Deno.test("runOp: unknown op and invalid args are rejected and change nothing", async () => {
  const ctx = await context();
  const created = await runOp(ctx, "tasks.create", { title: "keep" });
  assert(created.ok);
  const before = JSON.stringify(ctx.store.repos!.tasks.list());
  const unknown = await runOp(ctx, "tasks.nuke", {});
  assertEquals(unknown.ok ? null : unknown.error.code, "unknown_op");
  const bad = [
    await runOp(ctx, "tasks.rename", { id: "x", title: 1 }),
    await runOp(ctx, "tasks.create", { title: "t".repeat(LIMITS.titleChars + 1) }),
    await runOp(ctx, "tasks.delete", {}),
    await runOp(ctx, "task.send", { id: "x", text: "" }),
  ];
  for (const b of bad) assertEquals(b.ok ? null : b.error.code, "invalid_args");
  const missing = await runOp(ctx, "tasks.delete", { id: "nope" });
  assertEquals(missing.ok ? null : missing.error.code, "not_found");
  const sendMissing = await runOp(ctx, "task.send", { id: "nope", text: "hi" });
  assertEquals(sendMissing.ok ? null : sendMissing.error.code, "not_found");
  assertEquals(JSON.stringify(ctx.store.repos!.tasks.list()), before);
  ctx.store.close();
});

Deno.test("runOp: an unavailable store answers store_unavailable", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/bad.db`, "garbage garbage garbage");
  const store = new Store(`${dir}/bad.db`);
  const hub = new EventHub();
  const ctx: OpContext = {
    version: "t",
    home: dir,
    store,
    hub,
    tasks: null,
    runs: null,
    approvals: null,
    safety: new SafetyLog(hub, null),
    client: { id: "c", topics: new Set(), deliver: () => {} },
  };
  for (
    const [op, args] of [["tasks.list", {}], ["kv.get", { key: "ui.a" }], [
      "tasks.create",
      {},
    ]] as const
  ) {
    const out = await runOp(ctx, op, args);
    assertEquals(out.ok ? null : out.error.code, "store_unavailable", op);
  }
  const info = await runOp(ctx, "server.info", {});
  assert(info.ok);
});

Deno.test("quick titles: first 30 characters of the first line", async () => {
  const { quickTitle } = await import("../server/sessions/task_service.ts");
  assertEquals(quickTitle("  hello   world \nsecond"), "hello world");
  assertEquals(quickTitle("a".repeat(40)), "a".repeat(30) + "…");
  assertEquals(quickTitle("你".repeat(31)), "你".repeat(30) + "…");
});

Deno.test("tasks.list with ids: only those tasks that exist, in that order; bad ids are refused", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-tasks-ids-" });
  const deps = createServices({ home });
  const ops = localOpClient(deps);
  try {
    const ids: string[] = [];
    for (const title of ["one", "two", "three"]) {
      ids.push((await ops.request("tasks.create", { title })).task.id);
    }
    const some = await ops.request("tasks.list", { ids: [ids[2], "t-missing", ids[0]] });
    assertEquals(some.tasks.map((t: { title: string }) => t.title), ["three", "one"]);
    assertEquals((await ops.request("tasks.list")).tasks.length, 3, "without ids: every task");
    for (const bad of [["../x"], Array.from({ length: 101 }, (_, i) => `t${i}`), "t1"]) {
      const err = await ops.request("tasks.list", { ids: bad }).then(() => null, (e) => e);
      assertEquals(err?.code, "invalid_args", JSON.stringify(bad).slice(0, 40));
    }
  } finally {
    await ops.close();
  }
});
