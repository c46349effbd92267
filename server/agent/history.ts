/**
 * Turns stored timeline entries into the model's conversation, with orphan
 * protection: tool results whose call is missing are dropped, and tool
 * calls without a result get a synthetic "interrupted" result.
 */
import type { Entry } from "../../protocol/index.ts";
import { compactMetaOf, isClearMarker } from "../../protocol/index.ts";
import {
  assistantMessage,
  type ImageBlock,
  imagesOf,
  type LlmMessage,
  resultTextFor,
  type TextBlock,
  toolImagesMessage,
} from "../../agent/index.ts";
import { attachmentBlocks, type AttachmentData, emptyAttachmentData } from "./attachments.ts";
import { mentionBlocks } from "./mention_blocks.ts";
import { summaryBlock } from "./compaction/summary_block.ts";

export const INTERRUPTED =
  "The tool call was interrupted before it produced a result (the run was stopped or the app restarted).";

type AssistantMessage = Extract<LlmMessage, { role: "assistant" }>;

/** A stored assistant entry as the message the model reads (null when nothing in it is). */
export function assistantMessageOf(e: Entry): AssistantMessage | null {
  // The model that wrote it: its signatures and opaque reasoning go back to it alone.
  return assistantMessage(e.parts, typeof e.meta.model === "string" ? e.meta.model : undefined);
}

/**
 * A user entry's content for the model: the reminder pinned to it (when asked for), its
 * text (or a command's prompt), attachments, mentions.
 */
function userContent(
  e: Entry,
  attachments: AttachmentData,
  reminders: boolean,
): (TextBlock | ImageBlock)[] {
  const content: (TextBlock | ImageBlock)[] = [];
  const reminder = e.meta.reminder;
  if (reminders && typeof reminder === "string" && reminder) {
    content.push({ type: "text", text: reminder });
  }
  // A prompt command (`/init`, a custom one): the model reads its expansion, not "/init".
  const prompt = (e.meta.command as { prompt?: unknown } | undefined)?.prompt;
  if (typeof prompt === "string" && prompt) content.push({ type: "text", text: prompt });
  for (const p of e.parts) {
    if (p.type === "text" && p.text) {
      if (typeof prompt !== "string" || !prompt) content.push({ type: "text", text: p.text });
    } else if ((p.type === "image" || p.type === "file") && !p.data?.mention) {
      content.push(...attachmentBlocks(p, attachments));
    }
  }
  content.push(...mentionBlocks(e.parts));
  // What the user's hooks added when the prompt was submitted (UserPromptSubmit, SessionStart).
  const hookContext = e.meta.hookContext;
  if (typeof hookContext === "string" && hookContext) {
    content.push({ type: "text", text: hookContext });
  }
  return content;
}

/**
 * The entries that make the conversation: those after the latest `/clear` marker, and
 * after a compaction only the ones from its `keepFrom` (the compaction entry stands for
 * the rest).
 */
export function conversationScope(entries: Entry[]): { list: Entry[]; compact: Entry | null } {
  const from = entries.findLastIndex(isClearMarker) + 1;
  let list = from ? entries.slice(from) : entries;
  const compact = list.findLast((e) => compactMetaOf(e) !== null) ?? null;
  if (compact) {
    const keepFrom = compactMetaOf(compact)!.keepFrom;
    list = list.filter((e) => e.pos >= keepFrom);
  }
  return { list, compact };
}

/** The reminder pinned to the conversation's latest user message that carries one, or null. */
export function pinnedReminder(entries: Entry[]): string | null {
  const { list } = conversationScope(entries);
  for (let i = list.length - 1; i >= 0; i--) {
    const r = list[i].role === "user" ? list[i].meta.reminder : undefined;
    if (typeof r === "string" && r) return r;
  }
  return null;
}

/**
 * @param attachments bytes of image/file parts (see `attachments.ts`); without it images
 *   and files become path references.
 * Entries before the latest `/clear` marker are not part of the conversation; after a
 * compaction, its summary stands for the entries before its `keepFrom`. With `reminders`,
 * a user message carries the reminder pinned to it (what the turn's requests send).
 */
export function toConversation(
  entries: Entry[],
  attachments: AttachmentData = emptyAttachmentData(),
  opts: { vision?: boolean; reminders?: boolean } = {},
): LlmMessage[] {
  const out: LlmMessage[] = [];
  /** Calls of the latest assistant message still waiting for a result. */
  let open = new Map<string, string>();
  /** Images the latest step's tools returned (vision models see them after the results). */
  let images: { name: string; images: ImageBlock[] }[] = [];
  const closeOpen = () => {
    for (const [id, name] of open) {
      out.push({ role: "tool", toolCallId: id, name, content: INTERRUPTED, isError: true });
    }
    open = new Map();
    const msg = toolImagesMessage(images);
    if (msg) out.push(msg);
    images = [];
  };
  const known = new Set<string>();
  const { list, compact } = conversationScope(entries);
  for (const e of list) {
    if (e.role === "user") {
      closeOpen();
      if (e.meta.hookBlocked === true) continue; // a UserPromptSubmit hook kept it from the model
      const content = userContent(e, attachments, opts.reminders === true);
      if (content.length) out.push({ role: "user", content });
    } else if (e.role === "assistant") {
      closeOpen();
      const m = assistantMessageOf(e);
      if (!m) continue;
      out.push(m);
      for (const b of m.content) {
        if (b.type === "tool_call") {
          open.set(b.id, b.name);
          known.add(b.id);
        }
      }
    } else if (e.role === "system" && typeof e.meta.hookFeedback === "string") {
      // A Stop hook's reason sent the model back to work: the model read it as a message.
      closeOpen();
      out.push({ role: "user", content: [{ type: "text", text: e.meta.hookFeedback }] });
    } else if (e.role === "tool") {
      for (const p of e.parts) {
        if (p.type !== "tool_result" || !p.data) continue;
        const id = String(p.data.toolCallId);
        if (!known.has(id) || !open.has(id)) continue; // orphan or duplicate: never sent
        open.delete(id);
        out.push({
          role: "tool",
          toolCallId: id,
          name: String(p.data.name),
          content: resultTextFor(p.text ?? "", p.data.meta, opts.vision === true),
          isError: p.data.isError === true,
        });
        if (opts.vision) images.push({ name: String(p.data.name), images: imagesOf(p.data.meta) });
      }
    }
  }
  closeOpen();
  if (compact) withSummary(out, summaryBlock(compact));
  return out;
}

/** Puts the summary first: into the first user message, or as one before the kept steps. */
function withSummary(out: LlmMessage[], block: string): void {
  const text: TextBlock = { type: "text", text: block };
  const first = out[0];
  if (first?.role === "user") out[0] = { role: "user", content: [text, ...first.content] };
  else out.unshift({ role: "user", content: [text] });
}
