/**
 * Validates a request and runs its op. Every failure becomes a typed protocol
 * error; a rejected request changes nothing.
 */
import { isOpName, type OpName, type ProtocolError, validateArgs } from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import type { OpContext } from "./context.ts";
import type { Handler, OpHandlers } from "./types.ts";
import { TASK_HANDLERS } from "./task_ops.ts";
import { PROVIDER_HANDLERS } from "./provider_ops.ts";
import { PROJECT_HANDLERS } from "./projects_ops.ts";
import { COMPOSER_HANDLERS } from "./composer_ops.ts";
import { HISTORY_HANDLERS } from "./history_ops.ts";
import { SEARCH_HANDLERS } from "./search_ops.ts";
import { PANEL_HANDLERS } from "./panel_ops.ts";
import { SAFETY_HANDLERS } from "./safety_ops.ts";
import { COMMAND_HANDLERS } from "./command_ops.ts";

const HANDLERS: OpHandlers<OpName> = {
  ...TASK_HANDLERS,
  ...PROVIDER_HANDLERS,
  ...PROJECT_HANDLERS,
  ...COMPOSER_HANDLERS,
  ...HISTORY_HANDLERS,
  ...SEARCH_HANDLERS,
  ...PANEL_HANDLERS,
  ...SAFETY_HANDLERS,
  ...COMMAND_HANDLERS,
};

export type OpOutcome = { ok: true; result: unknown } | { ok: false; error: ProtocolError };

export async function runOp(ctx: OpContext, op: string, args: unknown): Promise<OpOutcome> {
  if (!isOpName(op)) {
    return { ok: false, error: { code: "unknown_op", message: `unknown op "${op}"` } };
  }
  const problems = validateArgs(op, args);
  if (problems.length) {
    return { ok: false, error: { code: "invalid_args", message: problems.join("; ") } };
  }
  try {
    return { ok: true, result: await (HANDLERS[op] as Handler<OpName>)(ctx, args ?? {}) };
  } catch (e) {
    if (e instanceof OpError) return { ok: false, error: { code: e.code, message: e.message } };
    console.error(`op ${op} failed:`, e);
    return { ok: false, error: { code: "internal", message: (e as Error).message } };
  }
}
