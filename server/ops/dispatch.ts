/**
 * Validates a request and runs its op. Every failure becomes a typed protocol
 * error; a rejected request changes nothing.
 */
import {
  isOpName,
  type OpArgs,
  type OpName,
  parseArgs,
  type ProtocolError,
} from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import type { OpContext } from "./context.ts";
import type { OpHandlers } from "./types.ts";
import { TASK_HANDLERS } from "./task_ops.ts";
import { PROVIDER_HANDLERS } from "./provider_ops.ts";
import { PROJECT_HANDLERS } from "./projects_ops.ts";
import { COMPOSER_HANDLERS } from "./composer_ops.ts";
import { HISTORY_HANDLERS } from "./history_ops.ts";
import { PREVIEW_HANDLERS, SEARCH_HANDLERS } from "./search_ops.ts";
import { JOB_HANDLERS } from "./jobs_ops.ts";
import { PANEL_HANDLERS } from "./panel_ops.ts";
import { SAFETY_HANDLERS } from "./safety_ops.ts";
import { COMMAND_HANDLERS } from "./command_ops.ts";
import { SUBAGENT_HANDLERS } from "./subagent_ops.ts";
import { MCP_HANDLERS } from "./mcp_ops.ts";
import { TERMINAL_HANDLERS } from "./terminal_ops.ts";
import { REMOTE_HANDLERS } from "./remote_ops.ts";
import { GIT_HANDLERS } from "./git_ops.ts";
import { FILES_HANDLERS } from "./files_ops.ts";
import { NOTIFY_HANDLERS } from "./notify_ops.ts";
import { SKILL_HANDLERS } from "./skills_ops.ts";
import { ENHANCE_HANDLERS } from "./enhance_ops.ts";
import { ASSISTANT_HANDLERS } from "./assistant_ops.ts";
import { MEMORY_HANDLERS } from "./memory_ops.ts";
import { CARRY_HANDLERS } from "./carry_ops.ts";
import { AUTOMATION_HANDLERS } from "./automation_ops.ts";
import { USAGE_HANDLERS } from "./usage_ops.ts";
import { HOOK_HANDLERS } from "./hooks_ops.ts";
import { NOTES_HANDLERS } from "./notes_ops.ts";
import { PLUGIN_HANDLERS } from "./plugin_ops.ts";
import { NET_HANDLERS } from "./net_ops.ts";
import { UPDATE_HANDLERS } from "./update_ops.ts";

const HANDLERS: OpHandlers<OpName> = {
  ...TASK_HANDLERS,
  ...PROVIDER_HANDLERS,
  ...PROJECT_HANDLERS,
  ...COMPOSER_HANDLERS,
  ...HISTORY_HANDLERS,
  ...SEARCH_HANDLERS,
  ...PREVIEW_HANDLERS,
  ...JOB_HANDLERS,
  ...PANEL_HANDLERS,
  ...SAFETY_HANDLERS,
  ...COMMAND_HANDLERS,
  ...SUBAGENT_HANDLERS,
  ...MCP_HANDLERS,
  ...TERMINAL_HANDLERS,
  ...REMOTE_HANDLERS,
  ...GIT_HANDLERS,
  ...FILES_HANDLERS,
  ...NOTIFY_HANDLERS,
  ...SKILL_HANDLERS,
  ...ENHANCE_HANDLERS,
  ...ASSISTANT_HANDLERS,
  ...MEMORY_HANDLERS,
  ...CARRY_HANDLERS,
  ...AUTOMATION_HANDLERS,
  ...USAGE_HANDLERS,
  ...HOOK_HANDLERS,
  ...NOTES_HANDLERS,
  ...PLUGIN_HANDLERS,
  ...NET_HANDLERS,
  ...UPDATE_HANDLERS,
};

export type OpOutcome = { ok: true; result: unknown } | { ok: false; error: ProtocolError };

/** Generic over the op so its handler and its args are known to belong together. */
const handle = <K extends OpName>(ctx: OpContext, op: K, args: OpArgs[K]) =>
  HANDLERS[op](ctx, args);

export async function runOp(ctx: OpContext, op: string, args: unknown): Promise<OpOutcome> {
  if (!isOpName(op)) {
    return { ok: false, error: { code: "unknown_op", message: `unknown op "${op}"` } };
  }
  const parsed = parseArgs(op, args);
  if (!parsed.ok) {
    return { ok: false, error: { code: "invalid_args", message: parsed.problems.join("; ") } };
  }
  try {
    return { ok: true, result: await handle(ctx, op, parsed.value) };
  } catch (e) {
    if (e instanceof OpError) return { ok: false, error: { code: e.code, message: e.message } };
    console.error(`op ${op} failed:`, e);
    return { ok: false, error: { code: "internal", message: (e as Error).message } };
  }
}
