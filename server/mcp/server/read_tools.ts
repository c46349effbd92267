/** The MCP tools that only read: tasks, a task's status, models, a task's options, waiting. */
import {
  APPROVAL_MODES,
  DEMO_PROVIDER_ID,
  effectiveEffort,
  offeredLevels,
  TASK_STATES,
  taskState,
} from "../../../protocol/index.ts";
import { doc, int, obj, oneOf, str } from "../../../protocol/schema.ts";
import { defineMcpTool, resolveTask, taskIdArg } from "./tool_kit.ts";
import type { OpPort } from "./op_port.ts";
import { McpOpError } from "./op_port.ts";
import { taskBrief, taskStatus } from "./task_view.ts";
import { waitForTask } from "./wait.ts";

/** Every enabled model of every enabled provider, and the default. */
export async function enabledModels(ops: OpPort) {
  const list = await ops.call("providers.list");
  const models = list.providers.filter((p) => p.enabled).flatMap((p) =>
    p.models.filter((m) => m.enabled).map((m) => ({
      providerId: p.id,
      providerName: p.name,
      modelId: m.id,
      name: m.name,
      vision: m.vision,
      effortLevels: offeredLevels(m),
      defaultEffort: m.defaultEffort,
      contextWindow: m.contextWindow,
    }))
  );
  return { models, defaultModel: list.defaultModel };
}

/** The model a task's next turn uses (its own, else the default, else Demo) and what it offers. */
export async function effectiveModel(ops: OpPort, taskId: string) {
  const { tasks } = await ops.call("tasks.list");
  const t = tasks.find((x) => x.id === taskId);
  if (!t) throw new McpOpError("not_found", `task ${taskId} does not exist`);
  const settings = await ops.call("settings.get");
  const { models } = await enabledModels(ops);
  const demo = models.find((m) => m.providerId === DEMO_PROVIDER_ID);
  const ref = t.settings.model ?? settings.defaultModel ??
    { providerId: DEMO_PROVIDER_ID, modelId: demo?.modelId ?? "" };
  const info = models.find((m) => m.providerId === ref.providerId && m.modelId === ref.modelId);
  return { task: t, settings, models, ref, offered: offeredLevels(info ?? null), info };
}

export const listTasks = defineMcpTool({
  name: "list_tasks",
  title: "List tasks",
  description:
    "Lists ReinAgent's tasks (newest activity first) with their state: running, waiting (for an approval), queued, failed, stopped, maxSteps, interrupted, done or new.",
  readOnly: true,
  args: obj({
    "state?": doc(oneOf(TASK_STATES), "Only tasks in this state."),
    "query?": doc(str({ max: 200 }), "Only tasks whose title contains this text."),
    "limit?": doc(int({ min: 1, max: 200 }), "At most this many tasks (default 50)."),
  }),
  async run(s, a) {
    const { tasks } = await s.ops.call("tasks.list");
    const { approvals } = await s.ops.call("approvals.list");
    const waiting = new Set(approvals.map((p) => p.taskId));
    const q = a.query?.toLowerCase();
    const all = tasks
      .filter((t) => !a.state || taskState(t, waiting.has(t.id)) === a.state)
      .filter((t) => !q || t.title.toLowerCase().includes(q));
    return {
      tasks: all.slice(0, a.limit ?? 50).map((t) => taskBrief(t, waiting.has(t.id))),
      total: all.length,
      currentTask: s.currentTask,
    };
  },
});

export const getTaskStatus = defineMcpTool({
  name: "get_task_status",
  title: "Task status",
  description:
    "A task's state, its run (step, phase), the approvals it waits for (approvalId for approve_tool), its message queue, the latest answer and the last messages.",
  readOnly: true,
  args: obj({
    "taskId?": taskIdArg,
    "recent?": doc(int({ min: 0, max: 50 }), "How many recent messages to include (default 10)."),
  }),
  run: (s, a) => taskStatus(s.ops, resolveTask(s, a.taskId), a.recent ?? 10),
});

export const listModels = defineMcpTool({
  name: "list_models",
  title: "List models",
  description:
    "The models that can be chosen (enabled models of enabled providers) with their thinking levels, and the default model.",
  readOnly: true,
  args: obj({}),
  run: (s) => enabledModels(s.ops),
});

export const getTaskOptions = defineMcpTool({
  name: "get_task_options",
  title: "Task options",
  description:
    "A task's model, thinking level and approval mode (null = the default, shown as `effective`), and the values each may take.",
  readOnly: true,
  args: obj({ "taskId?": taskIdArg }),
  async run(s, a) {
    const id = resolveTask(s, a.taskId);
    const { task: t, settings, models, ref, offered, info } = await effectiveModel(s.ops, id);
    return {
      taskId: id,
      model: t.settings.model,
      effort: t.settings.effort,
      approval: t.settings.approval,
      effective: {
        model: ref,
        effort: effectiveEffort(info ?? null, t.settings.effort ?? settings.defaultEffort),
        approval: t.settings.approval ?? settings.defaultApproval,
      },
      choices: {
        approvalModes: [...APPROVAL_MODES],
        effortLevels: offered,
        models: models.map((m) => ({ providerId: m.providerId, modelId: m.modelId })),
      },
    };
  },
});

export const waitForTaskTool = defineMcpTool({
  name: "wait_for_task",
  title: "Wait for a task",
  description:
    "Blocks until the task's run ends (outcome `finished`, with the answer) or it waits for a decision (outcome `needs_decision`: answer it with approve_tool), or the timeout passes (outcome `timeout`: call again). Use it to delegate work: send_message, then wait_for_task.",
  readOnly: true,
  args: obj({
    "taskId?": taskIdArg,
    "timeoutSeconds?": doc(
      int({ min: 1, max: 600 }),
      "How long to wait at most (default 50; keep it below your client's request timeout).",
    ),
  }),
  async run(s, a, signal) {
    const id = resolveTask(s, a.taskId);
    const outcome = await waitForTask(s.ops, id, (a.timeoutSeconds ?? 50) * 1000, signal);
    return { outcome, ...(await taskStatus(s.ops, id, 0)) };
  },
});
