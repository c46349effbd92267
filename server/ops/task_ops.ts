/** Handlers for task, timeline, kv, events and server ops. */
import { parseRule } from "../../protocol/permission_rules.ts";
import {
  type ASSISTANT_OP_ARGS,
  type AUTOMATION_OP_ARGS,
  type CARRY_OP_ARGS,
  type COMMAND_OP_ARGS,
  type COMPACTION_OP_ARGS,
  type COMPOSER_OP_ARGS,
  type EDITOR_OP_ARGS,
  type ENHANCE_OP_ARGS,
  type FILES_OP_ARGS,
  type GIT_OP_ARGS,
  type HISTORY_OP_ARGS,
  type HOOK_OP_ARGS,
  type JOB_OP_ARGS,
  LIMITS,
  type MCP_OP_ARGS,
  type MEMORY_OP_ARGS,
  type MENTION_OP_ARGS,
  type NET_OP_ARGS,
  type NOTES_OP_ARGS,
  type NOTIFY_OP_ARGS,
  type OpName,
  type PANEL_OP_ARGS,
  type PLUGIN_OP_ARGS,
  type PREVIEW_OP_ARGS,
  type PROJECT_OP_ARGS,
  type PROVIDER_OP_ARGS,
  type REMOTE_OP_ARGS,
  type RewindPlan,
  type RULES_OP_ARGS,
  type SAFETY_OP_ARGS,
  type SEARCH_OP_ARGS,
  type SKILL_OP_ARGS,
  type SUBAGENT_OP_ARGS,
  taskTopic,
  type TERMINAL_OP_ARGS,
  type UPDATE_OP_ARGS,
  type USAGE_OP_ARGS,
  type WORKTREE_OP_ARGS,
} from "../../protocol/index.ts";
import {
  createWorktree,
  discardWorktree,
  prepareGitPaths,
  removeWorktree,
} from "../worktrees/worktree.ts";
import { runSetup, setupCommandOf } from "../worktrees/setup.ts";
import { quickTitle } from "../sessions/task_service.ts";
import { OpError } from "../errors.ts";
import { type OpContext, services, startRun, whoIs } from "./context.ts";
import type { OpHandlers } from "./types.ts";
import { type RewindPreview, SHELL_FILE_CAP } from "../agent/checkpoints.ts";
import { displayPath } from "../../tools/paths.ts";
import { join } from "../../lib/path.ts";
import { getSettings } from "../providers/catalog.ts";
import { APPROVAL_RANK, SANDBOX_RANK } from "../sessions/safety.ts";
import type { SafetyChange, TaskSummary } from "../../protocol/index.ts";
import { newTaskCommand, taskCommand } from "../commands/surface.ts";
import { surfaceOf } from "./command_ops.ts";
import { newTaskSettings } from "./assistant_ops.ts";

/** "Always allow" a tool in a task lowers safety: every client is told. */
function announceAllow(ctx: OpContext, task: TaskSummary, tool: string): void {
  ctx.safety.announce(whoIs(ctx), [{
    what: "toolPolicy",
    taskId: task.id,
    taskTitle: task.title,
    tool,
    to: "allow",
  }]);
}

const UNKNOWN_CLIENT = { kind: "unknown", browser: "", os: "" } as const;

/** Ops of the other areas have their own handler modules (see dispatch.ts). */
type TaskOpName = Exclude<
  OpName,
  | keyof typeof PROVIDER_OP_ARGS
  | keyof typeof PROJECT_OP_ARGS
  | keyof typeof COMPOSER_OP_ARGS
  | keyof typeof HISTORY_OP_ARGS
  | keyof typeof SEARCH_OP_ARGS
  | keyof typeof PANEL_OP_ARGS
  | keyof typeof SAFETY_OP_ARGS
  | keyof typeof COMMAND_OP_ARGS
  | keyof typeof MENTION_OP_ARGS
  | keyof typeof COMPACTION_OP_ARGS
  | keyof typeof PREVIEW_OP_ARGS
  | keyof typeof JOB_OP_ARGS
  | keyof typeof SUBAGENT_OP_ARGS
  | keyof typeof MCP_OP_ARGS
  | keyof typeof TERMINAL_OP_ARGS
  | keyof typeof REMOTE_OP_ARGS
  | keyof typeof GIT_OP_ARGS
  | keyof typeof FILES_OP_ARGS
  | keyof typeof NOTIFY_OP_ARGS
  | keyof typeof SKILL_OP_ARGS
  | keyof typeof ENHANCE_OP_ARGS
  | keyof typeof ASSISTANT_OP_ARGS
  | keyof typeof MEMORY_OP_ARGS
  | keyof typeof CARRY_OP_ARGS
  | keyof typeof AUTOMATION_OP_ARGS
  | keyof typeof USAGE_OP_ARGS
  | keyof typeof HOOK_OP_ARGS
  | keyof typeof NOTES_OP_ARGS
  | keyof typeof PLUGIN_OP_ARGS
  | keyof typeof NET_OP_ARGS
  | keyof typeof RULES_OP_ARGS
  | keyof typeof UPDATE_OP_ARGS
  | keyof typeof WORKTREE_OP_ARGS
  | keyof typeof EDITOR_OP_ARGS
>;

/** Shows paths relative to the task's workspace and adds the shell note. */
function withNote(ctx: OpContext, taskId: string, p: RewindPreview): RewindPlan {
  const task = services(ctx).tasks.get(taskId);
  const ws = task.projectPath ?? join(ctx.home, "DefaultProject");
  const rel = (x: string) => displayPath(x, ws);
  return {
    restore: p.restore.map(rel),
    remove: p.remove.map(rel),
    conflicts: p.conflicts.map((c) => ({ ...c, path: rel(c.path) })),
    unrewindable: p.unrewindable.map((c) => ({ ...c, path: rel(c.path) })),
    note:
      "Files changed by shell commands are covered by a snapshot of the workspace taken before the turn's " +
      `first command (files up to ${SHELL_FILE_CAP / 1048576} MB, skipping .git and node_modules).`,
    noteCode: "shell_snapshot",
    noteParams: { mb: SHELL_FILE_CAP / 1048576 },
  };
}

/** Makes the worktree a new task will work in (its id chosen first: the folder's name). */
async function newWorktree(
  ctx: OpContext,
  a: {
    projectPath?: string | null;
    title?: string;
    message?: string;
    worktree?: { base?: string };
  },
) {
  if (!a.projectPath) {
    throw new OpError(
      "invalid_args",
      "a task gets a worktree of its own only in a project folder that is a git repository",
    );
  }
  const id = services(ctx).tasks.newTaskId();
  const title = a.title ?? quickTitle(a.message ?? "");
  const made = await createWorktree({
    home: ctx.home,
    folder: a.projectPath,
    taskId: id,
    title,
    base: a.worktree?.base,
  });
  await prepareGitPaths(made.info);
  return { id, ...made };
}

/**
 * Runs the project's setup command in a new worktree, then starts the task when it has a
 * message and the setup succeeded (a failure is the task's note; the agent does not start).
 */
async function setUpThenStart(ctx: OpContext, id: string, command: string, start: boolean) {
  const { tasks, repos, runs } = services(ctx);
  try {
    const ok = await runSetup(
      { repos, home: ctx.home, note: (e) => tasks.note(id, e) },
      tasks.get(id).settings,
      command,
      runs.closingSignal,
    );
    if (ok && start) startRun(ctx, id);
  } catch (e) {
    console.error(`setup of task ${id} failed:`, e);
  }
}

/** A message needs words or at least one attachment. */
function needContent(text: string, attachments: string[] | undefined): void {
  if (!text.trim() && !attachments?.length) {
    throw new OpError("invalid_args", "a message needs text or at least one attachment");
  }
}

export const TASK_HANDLERS: OpHandlers<TaskOpName> = {
  "tasks.list": (ctx, a) => ({ tasks: services(ctx).tasks.list(a.ids), seq: ctx.hub.lastSeq }),
  "tasks.create": async (ctx, a) => {
    const { tasks, composer } = services(ctx);
    if (a.message !== undefined) needContent(a.message, a.attachments);
    // A task in a worktree of its own works in that folder from its first message on.
    const isolated = a.worktree ? await newWorktree(ctx, a) : null;
    const project = isolated?.info.path ?? a.projectPath ?? null;
    const atts = a.message !== undefined ? await composer.attachments(a.attachments) : [];
    // `/plan <task>` creates the task in plan mode, `/goal <text>` with a goal (slash commands).
    const cmd = a.message !== undefined
      ? await newTaskCommand(surfaceOf(ctx), a.message, project, { attachments: atts.length > 0 })
      : null;
    const message: string | undefined = cmd ? cmd.send : a.message;
    const { extra, meta } = message !== undefined
      ? await composer.prepare(project, message, atts)
      : { extra: [], meta: {} };
    const chosen = cmd?.approval || cmd?.model
      ? {
        ...a.options,
        ...(cmd.approval ? { approval: cmd.approval } : {}),
        ...(cmd.model ? { model: cmd.model } : {}),
      }
      : a.options;
    // The assistant's bound model / effort / MCP servers apply once, here (draft picks win).
    const options = await newTaskSettings(ctx, chosen);
    let out;
    try {
      out = tasks.create({
        ...a,
        ...(isolated ? { id: isolated.id, projectPath: isolated.info.path } : {}),
        message,
        options: isolated ? { ...options, worktree: isolated.info } : options,
        parts: extra,
        meta,
        goal: cmd?.goal,
      });
    } catch (e) {
      if (isolated) await discardWorktree(isolated.info).catch(() => {});
      throw e;
    }
    if (a.message !== undefined) {
      composer.rememberPrompt(out.task.projectPath, a.message);
      composer.clearDraft(null); // the new-task draft became this task
    }
    // The creator follows its new task from the first event on (no race with the run).
    ctx.client.topics.add(taskTopic(out.task.id));
    const setup = isolated ? setupCommandOf(services(ctx).repos, out.task.settings) : null;
    if (setup) void setUpThenStart(ctx, out.task.id, setup, out.entry !== null);
    else if (out.entry) startRun(ctx, out.task.id);
    const notes = isolated ? { worktreeNotes: isolated.notes } : {};
    return cmd
      ? { ...out, ...notes, command: { ...cmd.reply, ran: out.entry !== null } }
      : { ...out, ...notes };
  },
  "tasks.rename": (ctx, a) => ({ task: services(ctx).tasks.rename(a.id, a.title) }),
  "tasks.pin": (ctx, a) => ({ task: services(ctx).tasks.pin(a.id, a.pinned) }),
  "tasks.delete": async (ctx, a) => {
    const { tasks, runs, composer } = services(ctx);
    await runs.stop(a.id); // never write into a task that is gone
    const task = tasks.get(a.id);
    const wt = task.settings.worktree;
    if (wt && !a.keepWorktree) await removeWorktree(wt, task.title);
    tasks.delete(a.id);
    runs.checkpoints.forgetTask(a.id); // its rows went with it: collect their blobs
    composer.forget(a.id);
    return { id: a.id };
  },
  "tasks.markRead": (ctx, a) => ({ task: services(ctx).tasks.markRead(a.id) }),
  "task.subscribe": (ctx, a) => {
    const { tasks, runs, composer } = services(ctx);
    // One tick, in this order: send what is queued (to the others), write the streaming
    // entry, snapshot, subscribe — so the snapshot ends exactly where this client's
    // events begin (no delta lost, none applied twice).
    ctx.hub.flush();
    runs.persistLive(a.id);
    const snap = tasks.snapshot(a.id, LIMITS.entryPage);
    ctx.client.topics.add(taskTopic(a.id));
    return { ...snap, seq: ctx.hub.lastSeq, run: runs.state(a.id), queue: composer.list(a.id) };
  },
  "task.unsubscribe": (ctx, a) => {
    ctx.client.topics.delete(taskTopic(a.id));
    // An MCP server's question for this task goes to every client if nobody has it open now.
    ctx.mcp?.elicitations.reroute();
    return { id: a.id };
  },
  "task.send": async (ctx, a) => {
    needContent(a.text, a.attachments);
    const { composer } = services(ctx);
    const atts = await composer.attachments(a.attachments);
    // A local slash command (/goal, /clear, /plan, /help) acts here, without the model.
    const by = whoIs(ctx);
    const local = await taskCommand(surfaceOf(ctx), a.id, a.text, {
      attachments: atts.length > 0,
      by,
    });
    if (local && local.send === undefined) {
      return { entry: null, queued: null, command: local.reply };
    }
    // While the task runs the message waits in its steering queue (composer_service.ts).
    const out = await composer.send(a.id, local?.send ?? a.text, atts, (id) => startRun(ctx, id));
    return local ? { ...out, command: { ...local.reply, ran: true } } : out;
  },
  "task.stop": async (ctx, a) => {
    const { tasks, runs } = services(ctx);
    tasks.get(a.id);
    return { id: a.id, stopped: await runs.stop(a.id) };
  },
  "task.continue": (ctx, a) => {
    const { tasks, runs } = services(ctx);
    tasks.get(a.id);
    if (runs.isRunning(a.id)) throw new OpError("busy", "the task is already running");
    startRun(ctx, a.id);
    return { id: a.id };
  },
  "task.setOptions": (ctx, a) => {
    const { tasks, approvals, repos } = services(ctx);
    const before = tasks.get(a.id);
    const task = tasks.setOptions(a.id, a);
    approvals.reevaluate(a.id); // a mode change applies at once to what waits
    const sys = getSettings(repos);
    const mode = (t: typeof task) => t.settings.approval ?? sys.defaultApproval;
    const level = (t: typeof task) => t.settings.sandbox ?? sys.sandboxLevel;
    const lowered: SafetyChange[] = [];
    const where = { taskId: task.id, taskTitle: task.title };
    if (APPROVAL_RANK[mode(task)] < APPROVAL_RANK[mode(before)]) {
      lowered.push({ what: "taskApproval", ...where, from: mode(before), to: mode(task) });
    }
    if (SANDBOX_RANK[level(task)] < SANDBOX_RANK[level(before)]) {
      lowered.push({ what: "taskSandbox", ...where, from: level(before), to: level(task) });
    }
    if (lowered.length) ctx.safety.announce(whoIs(ctx), lowered);
    return { task };
  },
  "task.setToolPolicy": (ctx, a) => {
    const { tasks, approvals } = services(ctx);
    const before = tasks.get(a.id);
    approvals.setPolicy(a.id, a.tool, a.policy);
    if (a.policy === "allow" && before.settings.toolPolicies?.[a.tool] !== "allow") {
      announceAllow(ctx, before, a.tool);
    }
    approvals.reevaluate(a.id);
    const task = tasks.get(a.id);
    tasks.publish(task);
    return { task };
  },
  "task.removeRule": (ctx, a) => {
    const { tasks, approvals } = services(ctx);
    tasks.get(a.id); // not_found first
    approvals.removeTaskRule(a.id, a.rule);
    approvals.reevaluate(a.id);
    const task = tasks.get(a.id);
    tasks.publish(task);
    return { task };
  },
  "task.rewindPreview": async (ctx, a) =>
    withNote(ctx, a.id, await services(ctx).runs.rewind(a.id, a.entryId, false)),
  "task.rewind": async (ctx, a) => {
    const { runs } = services(ctx);
    const plan = withNote(ctx, a.id, await runs.rewind(a.id, a.entryId, true));
    if (plan.conflicts.length || plan.unrewindable.length) {
      const list = [...plan.conflicts, ...plan.unrewindable].map((c) => `${c.path} (${c.reason})`)
        .join(", ");
      throw new OpError("conflict", `nothing was rewound: ${list}`);
    }
    // Every client (and a reload) shows the rewind in the conversation.
    runs.records.rewound(a.id, a.entryId, plan, ctx.client.info ?? UNKNOWN_CLIENT);
    return plan;
  },
  "approvals.list": (ctx) => ({ approvals: services(ctx).approvals.list() }),
  "approval.decide": (ctx, a) => {
    const { approvals, repos } = services(ctx);
    const pending = approvals.list().find((p) => p.id === a.id);
    if (
      a.rule !== undefined &&
      (a.decision !== "always" || parseRule(a.rule)?.tool !== pending?.call.name)
    ) {
      throw new OpError(
        "invalid_args",
        `the rule must name the tool ${pending?.call.name ?? "?"}, with always`,
      );
    }
    if (!approvals.decide(a.id, a.decision, a.feedback, a.answers, undefined, a.rule)) {
      throw new OpError(
        "not_found",
        `no live approval ${a.id} (already answered, or from before a restart: use approval.recover)`,
      );
    }
    if (a.decision === "always" && pending && a.rule === undefined) {
      const task = repos.tasks.get(pending.taskId);
      if (task) announceAllow(ctx, task, pending.call.name);
    }
    return { id: a.id };
  },
  "approvals.decideAll": (ctx, a) => ({ count: services(ctx).approvals.decideAll(a.decision) }),
  "approval.recover": async (ctx, a) => {
    const { approvals, runs } = services(ctx);
    const p = approvals.dismiss(a.id);
    if (!p) throw new OpError("not_found", `no approval ${a.id} waiting for recovery`);
    // "Allow & continue" on a recovered plan approves it exactly like a live approval.
    if (a.action === "allow" && p.kind === "plan") approvals.planApproved(p.taskId);
    if (a.action !== "ignore") await runs.recoverCall(p.taskId, p.call, a.action);
    return { id: a.id };
  },
  "events.resume": (ctx, a) => {
    const topics = new Set<string>(a.topics);
    topics.add("tasks");
    const events = ctx.hub.replay(a.epoch, a.afterSeq, topics);
    for (const t of topics) ctx.client.topics.add(t);
    if (events?.length) ctx.client.deliver(events);
    return { replayed: events !== null, seq: ctx.hub.lastSeq };
  },
  "kv.get": (ctx, a) => ({ key: a.key, value: services(ctx).repos.kv.get(a.key) ?? null }),
  "kv.set": (ctx, a) => {
    services(ctx).repos.kv.set(a.key, a.value);
    return { key: a.key };
  },
  "server.info": (ctx) => ({
    version: ctx.version,
    home: ctx.home,
    store: ctx.store.health,
    clients: ctx.hub.clientCount,
    pid: Deno.pid,
  }),
};
