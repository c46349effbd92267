/**
 * Every op the protocol declares has a handler, loaded with the server or on first call
 * (server/ops/dispatch.ts loads feature groups lazily, so the type checker no longer sees
 * a missing one).
 */
import { assertEquals } from "./helpers/assert.ts";
import { OP_ARGS, type OpName } from "../protocol/index.ts";
import { handlerOf } from "../server/ops/dispatch.ts";

Deno.test("dispatch: every declared op has a handler (lazy groups included)", async () => {
  const missing: string[] = [];
  for (const op of Object.keys(OP_ARGS) as OpName[]) {
    try {
      if (typeof await handlerOf(op) !== "function") missing.push(op);
    } catch {
      missing.push(op);
    }
  }
  assertEquals(missing, []);
});
