/**
 * The MCP tools that decide and configure: approvals, model, approval mode, thinking
 * level. They go through the UI's ops, so a change that lowers safety ("always",
 * a lower approval mode) is announced to every window naming this MCP client.
 */
import { APPROVAL_MODES, EFFORT_LEVELS } from "../../../protocol/index.ts";
import { arr, doc, obj, oneOf, str } from "../../../protocol/schema.ts";
import { defineMcpTool, resolveTask, taskIdArg } from "./tool_kit.ts";
import { McpOpError } from "./op_port.ts";
import { approvalBrief, taskStatus } from "./task_view.ts";
import { needModel } from "./task_tools.ts";
import { effectiveModel } from "./read_tools.ts";

export const approveTool = defineMcpTool({
  name: "approve_tool",
  title: "Answer an approval",
  description:
    "Answers a tool call that waits for approval: allow (once), always (allow this tool in this task from now on) or reject (with optional feedback for the agent). Without approvalId, the task's only waiting approval is answered. For ask_user_question, pass `answers`.",
  args: obj({
    "approvalId?": doc(str({ min: 1, max: 80 }), "From get_task_status or wait_for_task."),
    "taskId?": taskIdArg,
    decision: oneOf(["allow", "always", "reject"]),
    "feedback?": doc(str({ max: 4000 }), "Why it was rejected (the agent reads it)."),
    "answers?": doc(
      arr(obj({ question: str({ max: 2000 }), answers: arr(str({ max: 4000 }), 8) }), 4),
      "For ask_user_question: per question, the chosen labels or free text.",
    ),
  }),
  async run(s, a) {
    const { approvals } = await s.ops.call("approvals.list");
    let target = a.approvalId ? approvals.find((p) => p.id === a.approvalId) : undefined;
    if (a.approvalId && !target) {
      throw new McpOpError(
        "not_found",
        `no approval ${a.approvalId} is waiting (already answered?)`,
      );
    }
    if (!target) {
      const id = resolveTask(s, a.taskId);
      const mine = approvals.filter((p) => p.taskId === id);
      if (mine.length === 0) throw new McpOpError("not_found", `task ${id} waits for no approval`);
      if (mine.length > 1) {
        throw new McpOpError(
          "invalid_args",
          `task ${id} waits for ${mine.length} approvals; pass approvalId (${
            mine.map((p) => p.id).join(", ")
          })`,
        );
      }
      target = mine[0];
    }
    if (target.live) {
      await s.ops.call("approval.decide", {
        id: target.id,
        decision: a.decision,
        ...(a.feedback ? { feedback: a.feedback } : {}),
        ...(a.answers ? { answers: a.answers } : {}),
      });
    } else {
      // Left from before a restart: the UI's recovery card offers allow / reject.
      if (a.decision === "always") {
        throw new McpOpError(
          "invalid_args",
          "an approval from before a restart takes allow or reject",
        );
      }
      await s.ops.call("approval.recover", { id: target.id, action: a.decision });
    }
    return { answered: approvalBrief(target), decision: a.decision };
  },
});

export const setModel = defineMcpTool({
  name: "set_model",
  title: "Set a task's model",
  description: "Chooses the model of a task for its next turns (a model from list_models).",
  args: obj({
    "taskId?": taskIdArg,
    providerId: str({ min: 1, max: 64 }),
    modelId: str({ min: 1, max: 200 }),
  }),
  async run(s, a) {
    const id = resolveTask(s, a.taskId);
    const model = await needModel(s.ops, { providerId: a.providerId, modelId: a.modelId });
    const out = await s.ops.call("task.setOptions", { id, model });
    return { taskId: id, settings: out.task.settings };
  },
});

export const setApprovalMode = defineMcpTool({
  name: "set_approval_mode",
  title: "Set a task's approval mode",
  description:
    "plan (read-only research ending in a plan), ask (writes and commands ask first), edit (file changes run, commands ask) or full (nothing asks; every open window is told that safety was lowered, naming this client).",
  args: obj({ "taskId?": taskIdArg, mode: oneOf(APPROVAL_MODES) }),
  async run(s, a) {
    const id = resolveTask(s, a.taskId);
    const out = await s.ops.call("task.setOptions", { id, approval: a.mode });
    const status = await taskStatus(s.ops, id, 0);
    return { taskId: id, settings: out.task.settings, approvals: status.approvals };
  },
});

export const setThinkingLevel = defineMcpTool({
  name: "set_thinking_level",
  title: "Set a task's thinking level",
  description:
    "Sets how hard the model thinks (and the step budget of a turn). The levels a model offers are in get_task_options.",
  args: obj({ "taskId?": taskIdArg, level: oneOf(EFFORT_LEVELS) }),
  async run(s, a) {
    const id = resolveTask(s, a.taskId);
    const { ref, offered } = await effectiveModel(s.ops, id);
    if (!offered.includes(a.level)) {
      throw new McpOpError(
        "invalid_args",
        `${ref.providerId}/${ref.modelId} offers ${offered.join(", ")}, not ${a.level}`,
      );
    }
    const out = await s.ops.call("task.setOptions", { id, effort: a.level });
    return { taskId: id, settings: out.task.settings };
  },
});
