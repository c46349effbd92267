/**
 * A tool result's structured details (`meta`), typed by the details the tools write
 * (protocol/tool_details.ts). Apart from the card logic (tool_model.js) so that the
 * stores that read a result's refusal or todos load only this.
 *
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 * @typedef {import("../../protocol/tool_details.ts").ToolName} ToolName
 */
/**
 * What a result of one of the tools `N` may carry.
 * @template {ToolName} N
 * @typedef {import("../../protocol/tool_details.ts").DetailsOf<N>} DetailsOf
 */

/**
 * The structured details of a result (`meta`) as the tools `tools` write them (`mcp`:
 * any MCP tool; left out: any tool), or an empty object: none, or a result of another
 * tool. Typed by the tools' details, so reading a key none of them writes is an error.
 * @template {ToolName} [N=ToolName]
 * @param {Entry|undefined} result
 * @param {readonly N[]} [tools]
 * @returns {DetailsOf<N>}
 */
export function resultMeta(result, tools) {
  const data = result?.parts[0]?.data;
  const m = data?.meta;
  if (!m || typeof m !== "object") return {};
  const name = data?.name;
  if (
    tools && typeof name === "string" &&
    !tools.some((t) => t === name || (t === "mcp" && name.startsWith("mcp__")))
  ) return {};
  return /** @type {DetailsOf<N>} */ (m);
}
