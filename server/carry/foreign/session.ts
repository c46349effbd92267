/**
 * The shape every foreign-session reader produces, and its one conversion into tasks.
 * Ids are derived from the tool and the session's own id (sha-256), so importing the
 * same session again finds the same task and entry ids and changes nothing; a session
 * that grew since gets only its new entries.
 */
import { sha256Hex } from "../../../lib/sha256.ts";
import type { ExportedTask, ForeignSource } from "../../../protocol/carry.ts";
import type { Entry, EntryRole, Part } from "../../../protocol/domain.ts";
import { LIMITS } from "../../../protocol/index.ts";

export interface ForeignEntry {
  role: EntryRole;
  parts: Part[];
  createdAt: number;
  meta?: Record<string, unknown>;
  status?: Entry["status"];
}

export interface ForeignSession {
  source: ForeignSource;
  sessionId: string;
  /** The file (or database) it was read from. */
  file: string;
  title?: string;
  cwd: string | null;
  entries: ForeignEntry[];
}

/** What a reader returns for one file: its sessions and the problems (with line numbers). */
export interface ReadResult {
  sessions: ForeignSession[];
  problems: string[];
}

const SHORT: Record<ForeignSource, string> = {
  "claude-code": "cc",
  codex: "cx",
  opencode: "oc",
  pi: "pi",
};

const digest = (s: string) => sha256Hex(s).slice(0, 24);

/** The task id of a foreign session: stable across imports and machines. */
export const foreignTaskId = (source: ForeignSource, sessionId: string) =>
  `ti${SHORT[source]}${digest(`${source}\n${sessionId}`)}`;

/** One parsed JSONL line, with its 1-based number. */
export interface JsonLine {
  line: number;
  value: Record<string, unknown>;
}

/** Parses JSON Lines; a line that is not a JSON object is reported as `file:N` and skipped. */
export function readJsonLines(text: string, file: string, problems: string[]): JsonLine[] {
  const out: JsonLine[] = [];
  text.split("\n").forEach((raw, i) => {
    const s = raw.trim();
    if (!s) return;
    try {
      const v = JSON.parse(s);
      if (typeof v === "object" && v !== null && !Array.isArray(v)) {
        out.push({ line: i + 1, value: v });
      } else problems.push(`${file}:${i + 1}: not a JSON object`);
    } catch {
      problems.push(`${file}:${i + 1}: not valid JSON`);
    }
  });
  return out;
}

/** Milliseconds of an ISO string or number, or `fallback`. */
export function timeOf(v: unknown, fallback: number): number {
  if (typeof v === "number" && Number.isFinite(v)) return v < 1e11 ? v * 1000 : v;
  if (typeof v === "string") {
    const t = Date.parse(v);
    if (Number.isFinite(t)) return t;
  }
  return fallback;
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

/** Text of a content value that is a string or a list of `{type:"text", text}` blocks. */
export function contentText(v: unknown): string {
  if (typeof v === "string") return v;
  if (!Array.isArray(v)) return v === undefined || v === null ? "" : JSON.stringify(v);
  return v.map((b) => {
    if (typeof b === "string") return b;
    if (b && typeof b === "object") {
      const o = b as Record<string, unknown>;
      if (typeof o.text === "string") return o.text;
      if (o.type === "image" || o.type === "input_image") return "[image]";
    }
    return "";
  }).filter(Boolean).join("\n");
}

/** Parses a tool call's JSON arguments; text that is not an object is kept as `{input}`. */
export function argsOf(v: unknown): Record<string, unknown> {
  if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  if (typeof v === "string") {
    try {
      const o = JSON.parse(v);
      if (o && typeof o === "object" && !Array.isArray(o)) return o;
    } catch { /* not JSON: kept as text */ }
    return { input: v };
  }
  return {};
}

/** Normalised usage from the field names the tools use. */
export function usageOf(
  input: unknown,
  output: unknown,
  cacheRead: unknown = 0,
  cacheWrite: unknown = 0,
): { input: number; output: number; cacheRead: number; cacheWrite: number } | undefined {
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);
  if (typeof input !== "number" && typeof output !== "number") return undefined;
  return { input: n(input), output: n(output), cacheRead: n(cacheRead), cacheWrite: n(cacheWrite) };
}

/**
 * Builds a session's timeline the way ReinAgent records one: text and tool calls of a
 * model step in one assistant entry, each tool result its own `tool` entry.
 */
export class TimelineBuilder {
  readonly entries: ForeignEntry[] = [];
  private assistant: ForeignEntry | null = null;
  /** Tool names by call id (results often carry only the id). */
  readonly callNames = new Map<string, string>();

  user(text: string, at: number, meta: Record<string, unknown> = {}): void {
    if (!text.trim()) return;
    this.assistant = null;
    this.entries.push({ role: "user", parts: [{ type: "text", text }], createdAt: at, meta });
  }

  /** The assistant entry of the current step (a new one after a user message or result). */
  step(at: number, meta: Record<string, unknown> = {}): ForeignEntry {
    if (!this.assistant) {
      this.assistant = { role: "assistant", parts: [], createdAt: at, meta: { ...meta } };
      this.entries.push(this.assistant);
    } else Object.assign(this.assistant.meta!, meta);
    return this.assistant;
  }

  /** Ends the current step: the next assistant content starts a new entry. */
  endStep(): void {
    this.assistant = null;
  }

  text(text: string, at: number, meta?: Record<string, unknown>): void {
    if (text.trim()) this.step(at, meta).parts.push({ type: "text", text });
  }

  thinking(text: string, at: number, meta?: Record<string, unknown>): void {
    if (text.trim()) this.step(at, meta).parts.push({ type: "thinking", text });
  }

  toolCall(
    id: string,
    name: string,
    args: Record<string, unknown>,
    at: number,
    meta?: Record<string, unknown>,
  ): void {
    this.callNames.set(id, name);
    this.step(at, meta).parts.push({ type: "tool_call", data: { id, name, args } });
  }

  toolResult(callId: string, text: string, isError: boolean, at: number, name?: string): void {
    this.assistant = null;
    const tool = name ?? this.callNames.get(callId) ?? "tool";
    this.entries.push({
      role: "tool",
      status: isError ? "error" : "done",
      parts: [{ type: "tool_result", text, data: { toolCallId: callId, name: tool, isError } }],
      createdAt: at,
    });
  }
}

const firstLine = (s: string) => s.trim().split("\n")[0].trim();

/** A session as a task to import (null when it holds no conversation). */
export function sessionToTask(s: ForeignSession): ExportedTask | null {
  const entries = s.entries.filter((e) => e.parts.length > 0);
  if (!entries.some((e) => e.role === "user" || e.role === "assistant")) return null;
  const id = foreignTaskId(s.source, s.sessionId);
  const firstUser = entries.find((e) => e.role === "user")?.parts[0]?.text ?? "";
  const rawTitle = s.title?.trim() || firstLine(firstUser) || `${s.source} session`;
  const title = [...rawTitle].length > 80 ? [...rawTitle].slice(0, 79).join("") + "…" : rawTitle;
  const times = entries.map((e) => e.createdAt);
  return {
    id,
    title: [...title].slice(0, LIMITS.titleChars).join(""),
    projectPath: s.cwd && s.cwd.startsWith("/") ? s.cwd : null,
    pinned: false,
    lastRun: "done",
    settings: { model: null, effort: null, approval: null },
    createdAt: Math.min(...times),
    updatedAt: Math.max(...times),
    entries: entries.map((e, i): Entry => ({
      id: `${id}e${i + 1}`,
      taskId: id,
      pos: i + 1,
      role: e.role,
      status: e.status ?? "done",
      createdAt: e.createdAt,
      updatedAt: e.createdAt,
      parts: e.parts,
      meta: { ...e.meta, importedFrom: s.source },
    })),
    attachments: [],
    origin: { source: s.source, sessionId: s.sessionId, file: s.file },
  };
}

export const asStr = str;
