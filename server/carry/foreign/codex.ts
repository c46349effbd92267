/**
 * Codex sessions: `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`. Each line
 * is `{timestamp, type, payload}`: `session_meta` (id, cwd), `turn_context` (model),
 * `response_item` (OpenAI Responses items: `message`, `reasoning`, `function_call`,
 * `function_call_output`, `custom_tool_call[_output]`, `local_shell_call`) and
 * `event_msg` (`token_count` carries the last request's usage). Older rollouts wrote the
 * meta and the items bare, without the envelope; both are read. The context Codex
 * injects as user messages (environment, AGENTS.md) and developer messages are skipped.
 */
import { basename } from "../../../lib/path.ts";
import {
  argsOf,
  asStr,
  contentText,
  type ForeignEntry,
  readJsonLines,
  type ReadResult,
  TimelineBuilder,
  timeOf,
  usageOf,
} from "./session.ts";

const INJECTED =
  /^\s*(<environment_context>|<user_instructions>|<permissions instructions>|# AGENTS\.md instructions|<INSTRUCTIONS>)/;

const ITEM_TYPES = new Set([
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
]);

function outputText(v: unknown): { text: string; isError: boolean } {
  if (typeof v === "string") return { text: v, isError: false };
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return { text: contentText(o.content ?? o.output ?? ""), isError: o.success === false };
  }
  return { text: "", isError: false };
}

export function readCodex(text: string, file: string): ReadResult {
  const problems: string[] = [];
  const rows = readJsonLines(text, file, problems);
  const b = new TimelineBuilder();
  let sessionId = "";
  let cwd: string | null = null;
  let model = "";
  let at = 0;
  let lastAssistant: ForeignEntry | null = null;
  for (const { value: r } of rows) {
    at = timeOf(r.timestamp, at);
    const payload = (r.payload && typeof r.payload === "object" ? r.payload : null) as
      | Record<string, unknown>
      | null;
    if (r.type === "session_meta" || (!r.type && r.id && r.timestamp && !payload)) {
      const m = payload ?? r;
      sessionId ||= asStr(m.id);
      cwd ??= asStr(m.cwd) || null;
      continue;
    }
    if (r.type === "turn_context") {
      model = asStr(payload?.model) || model;
      continue;
    }
    if (r.type === "event_msg") {
      const info = payload?.type === "token_count"
        ? payload.info as Record<string, unknown> | null
        : null;
      const last = info?.last_token_usage as Record<string, unknown> | undefined;
      if (last && lastAssistant && !lastAssistant.meta?.usage) {
        const cached = typeof last.cached_input_tokens === "number" ? last.cached_input_tokens : 0;
        const usage = usageOf(
          typeof last.input_tokens === "number" ? last.input_tokens - cached : undefined,
          last.output_tokens,
          cached,
        );
        if (usage) lastAssistant.meta = { ...lastAssistant.meta, usage };
      }
      continue;
    }
    const item = r.type === "response_item" ? payload : ITEM_TYPES.has(asStr(r.type)) ? r : null;
    if (!item) continue;
    const meta = model ? { model: `codex/${model}` } : {};
    switch (item.type) {
      case "message": {
        const t = contentText(item.content);
        if (item.role === "user") {
          if (!INJECTED.test(t)) b.user(t, at);
        } else if (item.role === "assistant") {
          b.text(t, at, meta);
          lastAssistant = b.step(at);
        }
        break;
      }
      case "reasoning": {
        const summary = Array.isArray(item.summary) ? contentText(item.summary) : "";
        const content = Array.isArray(item.content) ? contentText(item.content) : "";
        b.thinking(content || summary, at, meta);
        if (content || summary) lastAssistant = b.step(at);
        break;
      }
      case "function_call":
        b.toolCall(
          asStr(item.call_id),
          asStr(item.name) || "tool",
          argsOf(item.arguments),
          at,
          meta,
        );
        lastAssistant = b.step(at);
        break;
      case "custom_tool_call":
        b.toolCall(
          asStr(item.call_id),
          asStr(item.name) || "tool",
          { input: asStr(item.input) },
          at,
          meta,
        );
        lastAssistant = b.step(at);
        break;
      case "local_shell_call": {
        const action = item.action as Record<string, unknown> | undefined;
        b.toolCall(
          asStr(item.call_id) || asStr(item.id),
          "local_shell",
          { command: action?.command ?? null },
          at,
          meta,
        );
        lastAssistant = b.step(at);
        break;
      }
      case "function_call_output":
      case "custom_tool_call_output": {
        const { text, isError } = outputText(item.output);
        b.toolResult(asStr(item.call_id), text, isError, at);
        break;
      }
    }
  }
  const fallback = basename(file).match(/([0-9a-f]{8}-[0-9a-f-]{27,})\.jsonl$/)?.[1] ??
    basename(file);
  return {
    sessions: [{
      source: "codex",
      sessionId: sessionId || fallback,
      file,
      cwd,
      entries: b.entries,
    }],
    problems,
  };
}
