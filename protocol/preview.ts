/**
 * The request preview: the exact next request of a task, built by the
 * function that sends it (server/agent/turn.ts) — system prompt, tools, the messages
 * with the reminder and after microcompact — as text per part and as the wire body.
 *
 * Op: `task.requestPreview {id}`.
 */
import { obj, type Schema, str } from "./schema.ts";
import type { ApiFormat } from "./provider_types.ts";

/** One message of the request, as text (tool calls and results written out). */
export interface PreviewMessage {
  role: "user" | "assistant" | "tool";
  text: string;
}

export interface RequestPreview {
  taskId: string;
  /** `provider/model` the request goes to. */
  model: string;
  format: ApiFormat;
  system: string;
  tools: { name: string; description: string }[];
  messages: PreviewMessage[];
  /** The body the adapter sends (images shown by size, not as data). */
  body: unknown;
  /** Estimated prompt tokens (by characters). */
  tokens: number;
}

export const PREVIEW_OP_ARGS = {
  "task.requestPreview": obj({ id: str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ }) }),
} satisfies Record<string, Schema>;

export interface PreviewOpResults {
  "task.requestPreview": RequestPreview;
}
