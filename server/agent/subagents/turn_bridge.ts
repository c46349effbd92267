/**
 * What a parent turn needs for its sub-agents, prepared once per turn: the types of
 * its workspace (listed in the `agent` tool's description) and, per call, the control
 * the `agent` tools get. Kept apart from turn.ts so the turn only asks for it.
 */
import type { ToolSpec } from "../../../protocol/provider_types.ts";
import { AGENT_DESCRIPTION, AGENT_TOOL_NAME, type SubagentControl } from "../../../tools/agent.ts";
import { definitionDirs, describeTypes, loadCatalog, type SubagentCatalog } from "./definitions.ts";
import type { ParentTurn, SubagentRunner } from "./runner.ts";

export interface TurnSubagents {
  /** The tool specs with the `agent` tool describing this workspace's types. */
  specs(base: ToolSpec[]): ToolSpec[];
  /** The control for the parent's call `callId`. */
  control(callId: string): SubagentControl;
}

/** The tool specs with the `agent` tool listing the catalog's types. */
export function withSubagentTypes(base: ToolSpec[], catalog: SubagentCatalog): ToolSpec[] {
  const description = `${AGENT_DESCRIPTION}\n\n${describeTypes(catalog)}`;
  return base.map((s) => (s.name === AGENT_TOOL_NAME ? { ...s, description } : s));
}

/** The sub-agent types of a workspace: built-ins and the user's definition files. */
export const loadSubagentCatalog = (workspace: string, home: string): Promise<SubagentCatalog> =>
  loadCatalog(definitionDirs(workspace, home));

/** The turn's sub-agents, with the catalog its context loaded (read once per turn). */
export function prepareSubagents(
  runner: SubagentRunner,
  catalog: SubagentCatalog,
  parent: Omit<ParentTurn, "catalog">,
): TurnSubagents {
  const turn: ParentTurn = { ...parent, catalog };
  return {
    specs: (base) => withSubagentTypes(base, catalog),
    control: (callId) => runner.control(turn, callId),
  };
}
