/**
 * Claude Code sessions: `~/.claude/projects/<encoded cwd>/<session uuid>.jsonl`, one
 * record per line. Conversation records have `type` "user" or "assistant" and an
 * Anthropic Messages `message`; one API message is often split over several lines that
 * share `message.id` (one content block each). Tool calls are `tool_use` blocks, their
 * results `tool_result` blocks of the next user record. Sidechains (sub-agent
 * transcripts), meta records and everything else (attachments, queue operations,
 * request shapes, summaries) are not conversation and are skipped.
 */
import { basename } from "../../../lib/path.ts";
import {
  argsOf,
  asStr,
  contentText,
  readJsonLines,
  type ReadResult,
  TimelineBuilder,
  timeOf,
  usageOf,
} from "./session.ts";

export function readClaudeCode(text: string, file: string): ReadResult {
  const problems: string[] = [];
  const rows = readJsonLines(text, file, problems);
  const b = new TimelineBuilder();
  let sessionId = "";
  let cwd: string | null = null;
  let title: string | undefined;
  let lastMessageId = "";
  let at = 0;
  for (const { line, value: r } of rows) {
    at = timeOf(r.timestamp, at);
    if (r.type === "summary" && typeof r.summary === "string") title ??= r.summary;
    if (r.type !== "user" && r.type !== "assistant") continue;
    if (r.isSidechain === true || r.isMeta === true) continue;
    const msg = r.message as Record<string, unknown> | undefined;
    if (!msg || typeof msg !== "object") {
      problems.push(`${file}:${line}: a ${r.type} record without a message`);
      continue;
    }
    sessionId ||= asStr(r.sessionId);
    cwd ??= asStr(r.cwd) || null;
    const content = msg.content;
    if (r.type === "user") {
      lastMessageId = "";
      if (typeof content === "string") {
        b.user(content, at);
        continue;
      }
      if (!Array.isArray(content)) continue;
      const texts: string[] = [];
      for (const block of content as Record<string, unknown>[]) {
        if (block?.type === "tool_result") {
          b.toolResult(
            asStr(block.tool_use_id),
            contentText(block.content),
            block.is_error === true,
            at,
          );
        } else if (block?.type === "text") texts.push(asStr(block.text));
        else if (block?.type === "image") texts.push("[image]");
      }
      if (texts.length) b.user(texts.join("\n"), at);
      continue;
    }
    // Assistant: lines of one API message continue one entry.
    const id = asStr(msg.id);
    if (!id || id !== lastMessageId) b.endStep();
    lastMessageId = id;
    const model = asStr(msg.model);
    const u = msg.usage as Record<string, unknown> | undefined;
    const meta: Record<string, unknown> = {};
    if (model && model !== "<synthetic>") meta.model = `claude-code/${model}`;
    const usage = u &&
      usageOf(
        u.input_tokens,
        u.output_tokens,
        u.cache_read_input_tokens,
        u.cache_creation_input_tokens,
      );
    if (usage) meta.usage = usage;
    if (!Array.isArray(content)) {
      b.text(contentText(content), at, meta);
      continue;
    }
    for (const block of content as Record<string, unknown>[]) {
      if (block?.type === "text") b.text(asStr(block.text), at, meta);
      else if (block?.type === "thinking") b.thinking(asStr(block.thinking), at, meta);
      else if (block?.type === "tool_use") {
        b.toolCall(asStr(block.id), asStr(block.name) || "tool", argsOf(block.input), at, meta);
      }
    }
  }
  return {
    sessions: [{
      source: "claude-code",
      sessionId: sessionId || basename(file).replace(/\.jsonl$/, ""),
      file,
      title,
      cwd,
      entries: b.entries,
    }],
    problems,
  };
}
