/**
 * A tool call as the model made it, and the one check it gets before anything acts on
 * it: a known tool, arguments that parsed as JSON and fit the tool's schema. The loop
 * checks each call once; the gate, the hooks and the runner then see the checked call.
 */
import type { ToolRegistry } from "../tools/registry.ts";
import type { Tool, ToolResult } from "../tools/types.ts";
import type { Refusal } from "../protocol/domain.ts";

export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** Set when the model's argument text was not a JSON object. */
  argsError?: string;
  /** What the user answered when the gate asked them; reaches the tool only. */
  answer?: unknown;
}

/** A call whose tool exists and whose arguments fit its schema (`args` as checked). */
export interface CheckedCall extends ToolCall {
  tool: Tool;
}

/** Decides whether a call may run (the approval gate). */
export type Gate = (
  call: CheckedCall,
  signal: AbortSignal,
) => Promise<
  | { allow: true; answer?: unknown }
  | { allow: false; reason: string; refusal?: Refusal }
>;

/** The checked call, or the error result the model reads instead. */
export function checkCall(tools: ToolRegistry, call: ToolCall): CheckedCall | ToolResult {
  const tool = tools.get(call.name);
  if (!tool) {
    const names = tools.specs().map((s) => s.name).join(", ");
    return { content: `Unknown tool "${call.name}". Available tools: ${names}.`, isError: true };
  }
  if (call.argsError) {
    return { content: `Invalid arguments for ${call.name}: ${call.argsError}`, isError: true };
  }
  const parsed = tool.parse(call.args);
  if (!parsed.ok) return { content: parsed.error, isError: true };
  return { ...call, args: parsed.args, tool };
}

export const isChecked = (c: CheckedCall | ToolResult): c is CheckedCall => "tool" in c;
