/**
 * pi sessions: `~/.pi/agent/sessions/<encoded cwd>/<time>_<uuid>.jsonl`. The first line
 * is `{type:"session", id, cwd, timestamp}`; conversation lines are
 * `{type:"message", message}` where `message.role` is `user`, `assistant` (content blocks
 * `text`, `thinking`, `toolCall {id, name, arguments}`, with `usage` and `model`) or
 * `toolResult {toolCallId, toolName, content, isError}`. Other line types (model and
 * thinking-level changes, labels, compaction) carry no conversation.
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

export function readPi(text: string, file: string): ReadResult {
  const problems: string[] = [];
  const rows = readJsonLines(text, file, problems);
  const b = new TimelineBuilder();
  let sessionId = "";
  let cwd: string | null = null;
  let at = 0;
  for (const { line, value: r } of rows) {
    at = timeOf(r.timestamp, at);
    if (r.type === "session") {
      sessionId ||= asStr(r.id);
      cwd ??= asStr(r.cwd) || null;
      continue;
    }
    if (r.type !== "message") continue;
    const m = r.message as Record<string, unknown> | undefined;
    if (!m || typeof m !== "object") {
      problems.push(`${file}:${line}: a message line without a message`);
      continue;
    }
    if (m.role === "user") b.user(contentText(m.content), at);
    else if (m.role === "toolResult") {
      b.toolResult(
        asStr(m.toolCallId),
        contentText(m.content),
        m.isError === true,
        at,
        asStr(m.toolName) || undefined,
      );
    } else if (m.role === "assistant") {
      b.endStep(); // every assistant message is one model step
      const u = m.usage as Record<string, unknown> | undefined;
      const meta: Record<string, unknown> = {};
      if (m.model) meta.model = `pi/${asStr(m.model)}`;
      const usage = u && usageOf(u.input, u.output, u.cacheRead, u.cacheWrite);
      if (usage) meta.usage = usage;
      const blocks = Array.isArray(m.content) ? m.content as Record<string, unknown>[] : [];
      if (!Array.isArray(m.content)) b.text(contentText(m.content), at, meta);
      for (const block of blocks) {
        if (block?.type === "text") b.text(asStr(block.text), at, meta);
        else if (block?.type === "thinking") b.thinking(asStr(block.thinking), at, meta);
        else if (block?.type === "toolCall") {
          b.toolCall(
            asStr(block.id),
            asStr(block.name) || "tool",
            argsOf(block.arguments),
            at,
            meta,
          );
        }
      }
    }
  }
  return {
    sessions: [{
      source: "pi",
      sessionId: sessionId || basename(file).replace(/\.jsonl$/, ""),
      file,
      cwd,
      entries: b.entries,
    }],
    problems,
  };
}
