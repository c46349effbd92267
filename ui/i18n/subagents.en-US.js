/**
 * English strings of the sub-agent views (tool card, transcript panel, background
 * badge). Merged into en-US by en.js; every key must exist in subagents.zh-CN.js.
 */
export default {
  "subagent.state.running": "Running",
  "subagent.state.done": "Done",
  "subagent.state.maxSteps": "Max steps ({n}) reached",
  "subagent.state.stopped": "Stopped",
  "subagent.state.failed": "Failed",
  "subagent.state.interrupted": "Interrupted",
  "subagent.background": "Background",
  "subagent.calls": "{n} tool calls",
  "subagent.calls.one": "1 tool call",
  "subagent.tokens": "{n} tokens",
  "subagent.tokensTitle": "Input {input} · output {output} tokens",
  "subagent.open": "Open transcript",
  "subagent.panelTitle": "Sub-agent",
  "subagent.readOnly": "Read-only replay of the sub-agent's conversation.",
  "subagent.model": "Model",
  "subagent.stop": "Stop",
  "subagent.stopOne": "Stop {name}",
  "subagent.truncated": "Only the first 2000 entries are shown.",
  "subagent.badge": "{n} background sub-agents running",
  "bg.badge": "Background work: {n} running",
  "bg.jobMeta": "command · {time}",
  "bg.stopJob": "Stop {command}",
  "subagent.step": "step {n}/{max}",
  "subagent.from": "Asked by the {type} sub-agent: {description}",
};
