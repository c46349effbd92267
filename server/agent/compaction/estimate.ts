/** Estimated prompt tokens of a request (by characters; see protocol estimateTokens). */
import { estimateTokens } from "../../../protocol/index.ts";
import type { LlmMessage, StreamRequest } from "../../../agent/index.ts";

function messageTokens(m: LlmMessage): number {
  if (m.role === "tool") return estimateTokens(m.content) + 4;
  let n = 4;
  for (const b of m.content) {
    if (b.type === "text" || b.type === "thinking") n += estimateTokens(b.text);
    else if (b.type === "tool_call") n += estimateTokens(JSON.stringify(b.args)) + 8;
    else if (b.type === "image") n += 1000; // providers bill images by size; a round figure
  }
  return n;
}

export function requestTokens(r: Pick<StreamRequest, "system" | "tools" | "messages">): number {
  let n = estimateTokens(r.system) + estimateTokens(JSON.stringify(r.tools));
  for (const m of r.messages) n += messageTokens(m);
  return n;
}
