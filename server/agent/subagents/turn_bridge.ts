/**
 * What a parent turn needs for its sub-agents, prepared once per turn: the types of
 * its workspace (listed in the `agent` tool's description) and, per call, the control
 * the `agent` tools get. Kept apart from turn.ts so the turn only asks for it.
 */
import type { ToolSpec } from "../../../protocol/provider_types.ts";
import { AGENT_DESCRIPTION, AGENT_TOOL_NAME, type SubagentControl } from "../../../tools/agent.ts";
import { definitionDirs, describeTypes, loadCatalog } from "./definitions.ts";
import type { ParentTurn, SubagentRunner } from "./runner.ts";

export interface TurnSubagents {
  /** The tool specs with the `agent` tool describing this workspace's types. */
  specs(base: ToolSpec[]): ToolSpec[];
  /** The control for the parent's call `callId`. */
  control(callId: string): SubagentControl;
}

export async function prepareSubagents(
  runner: SubagentRunner,
  home: string,
  parent: Omit<ParentTurn, "catalog">,
): Promise<TurnSubagents> {
  const catalog = await loadCatalog(definitionDirs(parent.workspace, home));
  const turn: ParentTurn = { ...parent, catalog };
  const description = `${AGENT_DESCRIPTION}\n\n${describeTypes(catalog)}`;
  return {
    specs: (base) => base.map((s) => (s.name === AGENT_TOOL_NAME ? { ...s, description } : s)),
    control: (callId) => runner.control(turn, callId),
  };
}
