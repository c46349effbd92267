/**
 * Validates a request and runs its op. Every failure becomes a typed protocol
 * error; a rejected request changes nothing.
 */
import {
  AUTOMATION_OP_ARGS,
  CARRY_OP_ARGS,
  EDITOR_OP_ARGS,
  ENHANCE_OP_ARGS,
  FILES_OP_ARGS,
  GIT_OP_ARGS,
  HOOK_OP_ARGS,
  isOpName,
  MCP_OP_ARGS,
  MEMORY_OP_ARGS,
  NET_OP_ARGS,
  NOTES_OP_ARGS,
  NOTIFY_OP_ARGS,
  type OpArgs,
  type OpName,
  parseArgs,
  PLUGIN_OP_ARGS,
  type ProtocolError,
  REMOTE_OP_ARGS,
  RULES_OP_ARGS,
  SKILL_OP_ARGS,
  SUBAGENT_OP_ARGS,
  TERMINAL_OP_ARGS,
  UPDATE_OP_ARGS,
  USAGE_OP_ARGS,
  WORKTREE_OP_ARGS,
} from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import { describeStoreError } from "../../store/errors.ts";
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
import { ASSISTANT_HANDLERS } from "./assistant_ops.ts";

type SomeHandlers = Partial<OpHandlers<OpName>>;

/** The core ops (tasks, composer, settings, …): loaded with the server. */
const HANDLERS: SomeHandlers = {
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
  ...ASSISTANT_HANDLERS,
};

/**
 * Feature ops whose handlers — and all they import — load on their first call, so a start
 * and a headless `run` compile and hold none of them. `tests/dispatch_test.ts`
 * checks that every op has a handler.
 */
const LAZY: [ops: Record<string, unknown>, load: () => Promise<SomeHandlers>][] = [
  [SUBAGENT_OP_ARGS, async () => (await import("./subagent_ops.ts")).SUBAGENT_HANDLERS],
  [MCP_OP_ARGS, async () => (await import("./mcp_ops.ts")).MCP_HANDLERS],
  [TERMINAL_OP_ARGS, async () => (await import("./terminal_ops.ts")).TERMINAL_HANDLERS],
  [REMOTE_OP_ARGS, async () => (await import("./remote_ops.ts")).REMOTE_HANDLERS],
  [GIT_OP_ARGS, async () => (await import("./git_ops.ts")).GIT_HANDLERS],
  [FILES_OP_ARGS, async () => (await import("./files_ops.ts")).FILES_HANDLERS],
  [NOTIFY_OP_ARGS, async () => (await import("./notify_ops.ts")).NOTIFY_HANDLERS],
  [SKILL_OP_ARGS, async () => (await import("./skills_ops.ts")).SKILL_HANDLERS],
  [ENHANCE_OP_ARGS, async () => (await import("./enhance_ops.ts")).ENHANCE_HANDLERS],
  [MEMORY_OP_ARGS, async () => (await import("./memory_ops.ts")).MEMORY_HANDLERS],
  [CARRY_OP_ARGS, async () => (await import("./carry_ops.ts")).CARRY_HANDLERS],
  [AUTOMATION_OP_ARGS, async () => (await import("./automation_ops.ts")).AUTOMATION_HANDLERS],
  [USAGE_OP_ARGS, async () => (await import("./usage_ops.ts")).USAGE_HANDLERS],
  [HOOK_OP_ARGS, async () => (await import("./hooks_ops.ts")).HOOK_HANDLERS],
  [NOTES_OP_ARGS, async () => (await import("./notes_ops.ts")).NOTES_HANDLERS],
  [PLUGIN_OP_ARGS, async () => (await import("./plugin_ops.ts")).PLUGIN_HANDLERS],
  [NET_OP_ARGS, async () => (await import("./net_ops.ts")).NET_HANDLERS],
  [RULES_OP_ARGS, async () => (await import("./rules_ops.ts")).RULES_HANDLERS],
  [UPDATE_OP_ARGS, async () => (await import("./update_ops.ts")).UPDATE_HANDLERS],
  [WORKTREE_OP_ARGS, async () => (await import("./worktree_ops.ts")).WORKTREE_HANDLERS],
  [EDITOR_OP_ARGS, async () => (await import("./editor_ops.ts")).EDITOR_HANDLERS],
];
const lazyOf = new Map<string, () => Promise<SomeHandlers>>(
  LAZY.flatMap(([ops, load]) => Object.keys(ops).map((op) => [op, load] as const)),
);

/** The handler of `op` (a lazy group is loaded once, then kept with the core ones). */
export async function handlerOf<K extends OpName>(op: K): Promise<OpHandlers<OpName>[K]> {
  const known = HANDLERS[op];
  if (known) return known as OpHandlers<OpName>[K];
  const load = lazyOf.get(op);
  if (!load) throw new Error(`no handler for op ${op}`);
  Object.assign(HANDLERS, await load());
  const h = HANDLERS[op];
  if (!h) throw new Error(`no handler for op ${op}`);
  return h as OpHandlers<OpName>[K];
}

export type OpOutcome = { ok: true; result: unknown } | { ok: false; error: ProtocolError };

/** Generic over the op so its handler and its args are known to belong together. */
const handle = async <K extends OpName>(ctx: OpContext, op: K, args: OpArgs[K]) =>
  (await handlerOf(op))(ctx, args);

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
    const store = describeStoreError(e);
    if (store) {
      console.error(`op ${op}: ${store}`);
      return { ok: false, error: { code: "store_unavailable", message: store } };
    }
    console.error(`op ${op} failed:`, e);
    return { ok: false, error: { code: "internal", message: (e as Error).message } };
  }
}
