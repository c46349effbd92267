/**
 * server/ops/context.ts `services(ctx)`: with the database down, an op of every handler
 * file answers the same `store_unavailable` error (one helper, one message), and the
 * ops that need no database still work.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { runOp } from "../server/ops/dispatch.ts";
import { Store } from "../store/store.ts";
import { EventHub } from "../server/sessions/hub.ts";
import { SafetyLog } from "../server/sessions/safety.ts";
import type { OpContext } from "../server/ops/context.ts";

const T = "t1";
const E = "m1";

/** One op per handler file, with valid args, that cannot run without the database. */
const NEEDS_STORE: [string, unknown][] = [
  ["task.subscribe", { id: T }], // task_ops
  ["approval.recover", { id: "a1", action: "ignore" }],
  ["queue.list", { id: T }], // composer_ops
  ["draft.get", { task: null }],
  ["task.retry", { id: T, entryId: E }], // history_ops
  ["file.diff", { taskId: T, turnId: E, path: "a.txt" }], // panel_ops
  ["projects.list", {}], // projects_ops
  ["providers.list", {}], // provider_ops
  ["safety.info", {}], // safety_ops
  ["search.query", { q: "x" }], // search_ops
];

Deno.test("services: every handler file answers one store_unavailable error", async () => {
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
  try {
    assert(store.health.error, "the garbage file must not open");
    const expected = {
      code: "store_unavailable",
      message: `the database could not be opened (${store.health.error}); it was left untouched`,
    };
    for (const [op, args] of NEEDS_STORE) {
      const out = await runOp(ctx, op, args);
      assertEquals(out.ok ? null : out.error, expected, op);
    }
    for (const op of ["server.info", "providers.presets", "about.info"]) {
      assert((await runOp(ctx, op, {})).ok, op);
    }
  } finally {
    hub.close();
    await Deno.remove(dir, { recursive: true });
  }
});
