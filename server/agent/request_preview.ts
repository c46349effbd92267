/**
 * The request preview from the request a turn would send now: each message
 * as text, and the adapter's wire body with image data replaced by its size (the
 * preview shows what is sent, not megabytes of base64).
 */
import type { PreviewMessage, RequestPreview } from "../../protocol/index.ts";
import { type LlmMessage, type StreamRequest, wireBody } from "../../agent/index.ts";
import { requestTokens } from "./compaction/estimate.ts";

function messageText(m: LlmMessage): PreviewMessage {
  if (m.role === "tool") {
    return { role: "tool", text: `← ${m.name}${m.isError ? " (error)" : ""}\n${m.content}` };
  }
  const parts = m.content.map((b) => {
    switch (b.type) {
      case "text":
        return b.text;
      case "image":
        return `[image ${b.mimeType}, ${Math.round((b.data.length * 3) / 4)} bytes]`;
      case "thinking":
        return `[thinking]\n${b.text}`;
      case "tool_call":
        return `→ ${b.name} ${JSON.stringify(b.args)}`;
    }
  });
  return { role: m.role, text: parts.join("\n\n") };
}

/** Image and file data (base64 `data` fields, data URLs) replaced by their size, everywhere. */
function withoutData(v: unknown, key = ""): unknown {
  if (typeof v === "string") {
    const data = v.length > 256 && (key === "data" || v.startsWith("data:"));
    return data ? `[${v.length} characters of base64 data]` : v;
  }
  if (Array.isArray(v)) return v.map((x) => withoutData(x));
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withoutData(x, k)]));
  }
  return v;
}

export async function requestPreview(taskId: string, req: StreamRequest): Promise<RequestPreview> {
  return {
    taskId,
    model: `${req.provider.id}/${req.model.id}`,
    format: req.provider.format,
    system: req.system,
    tools: req.tools.map((t) => ({ name: t.name, description: t.description })),
    messages: req.messages.map(messageText),
    body: withoutData(await wireBody(req)),
    tokens: requestTokens(req),
  };
}
