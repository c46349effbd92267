/**
 * How a safety notice reads: one lowered setting as an i18n key and its parameters
 * (pure; used by the notice banner and Settings, both loaded on demand).
 *
 * @typedef {import("../../protocol/index.ts").SafetyChange} SafetyChange
 */

/**
 * The i18n key and parameters describing one lowered setting.
 * @param {SafetyChange} c
 * @param {(key: string) => string} tr translates a nested value key
 * @returns {{key: string, params: Record<string, string>}}
 */
export function changeText(c, tr) {
  switch (c.what) {
    case "sandboxLevel":
      return {
        key: "safety.change.sandboxLevel",
        params: { from: tr(`safety.level.${c.from}`), to: tr(`safety.level.${c.to}`) },
      };
    case "sandboxNetwork":
      return { key: "safety.change.sandboxNetwork", params: {} };
    case "defaultApproval":
      return {
        key: "safety.change.defaultApproval",
        params: { from: tr(`approval.${c.from}`), to: tr(`approval.${c.to}`) },
      };
    case "taskApproval":
      return {
        key: "safety.change.taskApproval",
        params: { task: c.taskTitle, from: tr(`approval.${c.from}`), to: tr(`approval.${c.to}`) },
      };
    case "taskSandbox":
      return {
        key: "safety.change.taskSandbox",
        params: {
          task: c.taskTitle,
          from: tr(`safety.level.${c.from}`),
          to: tr(`safety.level.${c.to}`),
        },
      };
    case "toolPolicy":
      return { key: "safety.change.toolPolicy", params: { tool: c.tool, task: c.taskTitle } };
    case "envAllow":
      return { key: "safety.change.envAllow", params: { names: c.added.join(", ") } };
    case "hiddenPaths":
      return { key: "safety.change.hiddenPaths", params: { paths: c.removed.join(", ") } };
    case "mcpServer":
      return { key: "safety.change.mcpServer", params: { id: c.id, target: c.target } };
    case "mcpPolicy":
      return c.tool
        ? { key: "safety.change.mcpToolPolicy", params: { id: c.id, tool: c.tool } }
        : { key: "safety.change.mcpPolicy", params: { id: c.id } };
  }
}
