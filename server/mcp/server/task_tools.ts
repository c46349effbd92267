/** The MCP tools that create and drive tasks: create, send, draft, switch, stop, read, queue. */
import {
  APPROVAL_MODES,
  type ApprovalMode,
  type Effort,
  EFFORT_LEVELS,
  LIMITS,
  type ModelRef,
} from "../../../protocol/index.ts";
import { bool, doc, nullable, obj, oneOf, str } from "../../../protocol/schema.ts";
import { APPROVAL_RANK } from "../../sessions/safety.ts";
import { realFolder } from "../../ops/projects_ops.ts";
import { defineMcpTool, type McpSession, resolveTask, TASK_ID_RE, taskIdArg } from "./tool_kit.ts";
import { McpOpError, type OpPort } from "./op_port.ts";
import { taskBrief, taskStatus } from "./task_view.ts";
import { enabledModels } from "./read_tools.ts";

const messageArg = doc(
  str({ min: 1, max: LIMITS.messageChars }),
  "The message, as typed in the composer (a /command or @path works as there).",
);
const projectPathArg = doc(
  nullable(str({ min: 1, max: LIMITS.pathChars })),
  "An existing folder (absolute or ~/…) to work in; it is added as a project when it is not one. null or absent = the default workspace.",
);
export const modelArg = obj({
  providerId: str({ min: 1, max: 64 }),
  modelId: str({ min: 1, max: 200 }),
});

/** The folder of a project for this path, adding it as a project as the UI's "Add project" does. */
async function projectFor(ops: OpPort, raw: string): Promise<string> {
  const real = await realFolder(raw);
  const { projects } = await ops.call("projects.list");
  const known = projects.find((p) => p.path === real);
  if (known) return known.path;
  return (await ops.call("projects.add", { path: real })).project.path;
}

/** A model that can be chosen (enabled), or a clear error naming where the choices are. */
export async function needModel(ops: OpPort, m: ModelRef): Promise<ModelRef> {
  const { models } = await enabledModels(ops);
  if (!models.some((x) => x.providerId === m.providerId && x.modelId === m.modelId)) {
    throw new McpOpError(
      "invalid_args",
      `${m.providerId}/${m.modelId} is not an enabled model (list_models shows the choices)`,
    );
  }
  return m;
}

interface NewTask {
  message?: string;
  title?: string;
  projectPath?: string | null;
  model?: ModelRef;
  effort?: Effort;
  approval?: ApprovalMode;
  worktree?: boolean;
}

async function createTask(s: McpSession, a: NewTask) {
  const projectPath = a.projectPath ? await projectFor(s.ops, a.projectPath) : null;
  if (a.model) await needModel(s.ops, a.model);
  const { defaultApproval } = await s.ops.call("settings.get");
  // A mode below the default lowers safety: set it as the UI's menu does (every window is told).
  const lowers = a.approval !== undefined &&
    APPROVAL_RANK[a.approval] < APPROVAL_RANK[defaultApproval];
  const options = {
    ...(a.model ? { model: a.model } : {}),
    ...(a.effort ? { effort: a.effort } : {}),
    ...(a.approval && !lowers ? { approval: a.approval } : {}),
  };
  const out = await s.ops.call("tasks.create", {
    ...(a.title ? { title: a.title } : {}),
    projectPath,
    ...(a.message !== undefined && !lowers ? { message: a.message } : {}),
    options,
    ...(a.worktree ? { worktree: {} } : {}),
  });
  const id = out.task.id;
  s.currentTask = id;
  s.draft = null;
  if (lowers) {
    await s.ops.call("task.setOptions", { id, approval: a.approval });
    if (a.message !== undefined) await s.ops.call("task.send", { id, text: a.message });
  }
  return {
    taskId: id,
    started: a.message !== undefined,
    ...(out.command ? { command: out.command } : {}),
    ...(await taskStatus(s.ops, id, 0)),
  };
}

export const createTaskTool = defineMcpTool({
  name: "create_task",
  title: "Create a task",
  description:
    "Creates a task (it appears at once in every open ReinAgent window) and, with `message`, starts the agent on it. The new task becomes the session's current task. Follow with wait_for_task.",
  args: obj({
    "message?": messageArg,
    "title?": str({ min: 1, max: LIMITS.titleChars }),
    "projectPath?": projectPathArg,
    "model?": doc(modelArg, "A model from list_models (default: the default model)."),
    "effort?": doc(oneOf(EFFORT_LEVELS), "Thinking level (see get_task_options)."),
    "approval?": doc(oneOf(APPROVAL_MODES), "Approval mode: plan, ask, edit or full."),
    "worktree?": doc(
      bool,
      "Work in a git worktree of its own on a new branch reinagent/<short-title> (projectPath must be a git repository); review and merge it in ReinAgent.",
    ),
  }),
  run: (s, a) => createTask(s, a),
});

export const sendMessage = defineMcpTool({
  name: "send_message",
  title: "Send a message",
  description:
    "Sends a message to a task and starts the agent; while the task runs the message is queued (sent when the run ends). Without taskId: the task of start_draft is created, else the current task is used.",
  args: obj({ "taskId?": taskIdArg, text: messageArg }),
  async run(s, a) {
    if (!a.taskId && s.draft) {
      return await createTask(s, { message: a.text, projectPath: s.draft.projectPath });
    }
    const id = resolveTask(s, a.taskId);
    const out = await s.ops.call("task.send", { id, text: a.text });
    s.currentTask = id;
    return {
      taskId: id,
      sent: out.entry !== null,
      queuedItemId: out.queued?.id ?? null,
      ...(out.command ? { command: out.command } : {}),
    };
  },
});

export const startDraft = defineMcpTool({
  name: "start_draft",
  title: "Start a new task draft",
  description:
    "Starts a new task in a folder without sending anything yet: the next send_message without taskId creates the task there (like the UI's '+ New task').",
  args: obj({ "projectPath?": projectPathArg }),
  async run(s, a) {
    const projectPath = a.projectPath ? await projectFor(s.ops, a.projectPath) : null;
    s.draft = { projectPath };
    s.currentTask = null;
    return { draft: { projectPath }, next: "send_message without taskId creates the task" };
  },
});

export const switchTask = defineMcpTool({
  name: "switch_task",
  title: "Switch task",
  description:
    "Makes a task the session's current task (calls without taskId act on it) and returns its status.",
  args: obj({ taskId: doc(str({ min: 1, max: 64, pattern: TASK_ID_RE }), "The task to work on.") }),
  async run(s, a) {
    const status = await taskStatus(s.ops, a.taskId, 10);
    s.currentTask = a.taskId;
    s.draft = null;
    return { currentTask: a.taskId, ...status };
  },
});

export const stopTask = defineMcpTool({
  name: "stop_task",
  title: "Stop a task",
  description: "Stops the task's running turn (the model stream and its tools) within a second.",
  args: obj({ "taskId?": taskIdArg }),
  async run(s, a) {
    const id = resolveTask(s, a.taskId);
    const out = await s.ops.call("task.stop", { id });
    return { taskId: id, stopped: out.stopped };
  },
});

export const markTaskRead = defineMcpTool({
  name: "mark_task_read",
  title: "Mark a task read",
  description: "Clears the task's unread mark (as opening it in a window does).",
  args: obj({ "taskId?": taskIdArg }),
  async run(s, a) {
    const out = await s.ops.call("tasks.markRead", { id: resolveTask(s, a.taskId) });
    return taskBrief(out.task);
  },
});

export const removeQueuedMessage = defineMcpTool({
  name: "remove_queued_message",
  title: "Remove a queued message",
  description:
    "Removes a message waiting in the task's queue (itemId from get_task_status or send_message); it is not sent.",
  args: obj({
    "taskId?": taskIdArg,
    itemId: str({ min: 1, max: 64, pattern: TASK_ID_RE }),
  }),
  async run(s, a) {
    const id = resolveTask(s, a.taskId);
    const out = await s.ops.call("queue.remove", { id, itemId: a.itemId });
    return {
      taskId: id,
      queue: out.queue.map((q) => ({ itemId: q.id, text: q.text.slice(0, 500) })),
    };
  },
});
