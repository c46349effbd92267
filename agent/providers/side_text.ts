/**
 * A small side request beside the task's work (a title, a commit message): one user
 * message, no tools, no thinking, a short answer — the text it streams, joined.
 */
import type { Adapter, ModelInfo, ProviderConfig } from "./types.ts";

export async function sideText(
  target: { adapter: Adapter; provider: ProviderConfig; model: ModelInfo },
  ask: { system: string; user: string; maxTokens: number },
  signal: AbortSignal,
): Promise<string> {
  let out = "";
  const stream = target.adapter.stream({
    provider: target.provider,
    model: target.model,
    system: ask.system,
    messages: [{ role: "user", content: [{ type: "text", text: ask.user }] }],
    tools: [],
    effort: "off",
    maxTokens: ask.maxTokens,
  }, signal);
  for await (const ev of stream) if (ev.type === "text") out += ev.delta;
  return out;
}
