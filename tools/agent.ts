/**
 * `agent` and `subagent_output`: delegate a self-contained piece of work
 * to a sub-agent — a nested agent loop with its own tool list — and read its report.
 * The arguments have the shape models know from Claude Code's Task tool. The tools
 * only check and forward: the run hands each call a `SubagentControl` in its context
 * (server/agent/subagents/), so a sub-agent, whose calls get none, can never start
 * another one.
 */
import { defineTool } from "./define.ts";
import type { ToolDetails } from "../protocol/tool_details.ts";
import { bool, doc, obj, str } from "../protocol/schema.ts";
import { SUBAGENT_LIMITS } from "../protocol/subagents.ts";
import {
  type AgentArgs,
  fail,
  type OutputArgs,
  type SubagentControl,
  type ToolContext,
} from "./types.ts";

export type { AgentArgs, OutputArgs, SubagentControl } from "./types.ts";

const controlOf = (ctx: ToolContext): SubagentControl | null => ctx.subagents ?? null;

const NOT_HERE = "Sub-agents cannot start or read other sub-agents; do the work with your " +
  "own tools and report back.";

export const AGENT_TOOL_NAME = "agent";

/** The description before the list of types (filled in per turn: they depend on the workspace). */
export const AGENT_DESCRIPTION =
  "Launch a sub-agent to handle a self-contained task on its own: it works with its own " +
  "tools and context and returns one final report (it cannot see this conversation, so " +
  "put everything it needs in `prompt`, and say what the report should contain). Use it for " +
  "broad searches, reviews or test runs whose details you do not need in your own context. " +
  "Several agent calls in one message run in parallel; with run_in_background: true it " +
  "returns an id at once and you read the report later with subagent_output.";

export const agentTool = defineTool<AgentArgs, ToolDetails<"agent">>({
  name: AGENT_TOOL_NAME,
  description: AGENT_DESCRIPTION,
  args: obj({
    description: doc(
      str({ min: 1, max: SUBAGENT_LIMITS.descriptionChars }),
      "A short (3-8 words) description of the task",
    ),
    prompt: doc(
      str({ min: 1, max: SUBAGENT_LIMITS.promptChars }),
      "The full task for the sub-agent, with the context it needs",
    ),
    subagent_type: doc(
      str({ min: 1, max: SUBAGENT_LIMITS.typeChars }),
      "Which type of sub-agent to use (see the list of types)",
    ),
    "run_in_background?": doc(
      bool,
      "Return at once with an id; read the report with subagent_output",
    ),
  }),
  // Starting one needs no approval: each tool call of the sub-agent passes the gate.
  kind: "read",
  placement: "main",
  execute(args, ctx) {
    const control = controlOf(ctx);
    return control ? control.start(args, ctx.signal) : Promise.resolve(fail(NOT_HERE));
  },
});

export const subagentOutput = defineTool<OutputArgs, ToolDetails<"subagent_output">>({
  name: "subagent_output",
  description: "Read the state and, once it finished, the report of a background sub-agent " +
    "started with agent {run_in_background: true}. With wait: true it waits until the " +
    "sub-agent finishes (up to 10 minutes).",
  args: obj({
    id: doc(str({ min: 1, max: 80 }), "The id the agent tool returned"),
    "wait?": doc(bool, "Wait for the sub-agent to finish"),
  }),
  kind: "read",
  placement: "main",
  execute(args, ctx) {
    const control = controlOf(ctx);
    return control ? control.output(args, ctx.signal) : Promise.resolve(fail(NOT_HERE));
  },
});
