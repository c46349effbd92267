/**
 * Replays streams recorded from the real provider APIs (tests/fixtures/recorded/): a
 * local server answers each request with the next recorded stream, framed as the API
 * frames it, and keeps every request body; `runRecorded` drives the agent loop (real
 * adapter, real timeline writer, in-memory entries) through those answers, so a test
 * sees both what the adapter made of a real stream and what the loop sent back next.
 */
import type { Entry, Part } from "../../protocol/index.ts";
import type {
  ApiFormat,
  LlmMessage,
  StreamRequest,
  ToolSpec,
} from "../../agent/providers/types.ts";
import { adapterFor } from "../../agent/providers/index.ts";
import { driveLoop, type LoopOutcome } from "../../agent/index.ts";
import { TimelineWriter } from "../../server/agent/timeline_writer.ts";
import { ToolRegistry } from "../../tools/registry.ts";
import type { Tool } from "../../tools/types.ts";
import type { EntrySink } from "../../store/subagents.ts";

const DIR = new URL("../fixtures/recorded/", import.meta.url);

/** The recorded stream's payloads, one JSON text per line. */
export function recorded(name: string): string[] {
  return Deno.readTextFileSync(new URL(name, DIR)).split("\n").filter((l) => l.trim());
}

/** A recording of several Responses answers in a row, one stream per `response.created`. */
export function splitResponses(lines: string[]): string[][] {
  const out: string[][] = [];
  for (const l of lines) {
    if (JSON.parse(l).type === "response.created" || !out.length) out.push([]);
    out[out.length - 1].push(l);
  }
  return out;
}

/** The SSE frames of a recorded stream, as each API sends them. */
function frames(format: ApiFormat, lines: string[]): string {
  if (format === "anthropic-messages") {
    return lines.map((l) => `event: ${JSON.parse(l).type}\ndata: ${l}\n\n`).join("");
  }
  const body = lines.map((l) => `data: ${l}\n\n`).join("");
  return format === "openai-chat-completions" ? `${body}data: [DONE]\n\n` : body;
}

export interface ReplayServer {
  base: string;
  /** The request bodies in the order they came. */
  bodies: Record<string, unknown>[];
  close(): Promise<void>;
}

/** Answers the n-th request with `streams[n]` (the last one again when they run out). */
export function replayServer(format: ApiFormat, streams: string[][]): ReplayServer {
  const bodies: Record<string, unknown>[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (r) => {
    bodies.push(await r.json());
    const lines = streams[Math.min(bodies.length, streams.length) - 1];
    return new Response(frames(format, lines), {
      headers: { "content-type": "text/event-stream" },
    });
  });
  return {
    base: `http://127.0.0.1:${server.addr.port}`,
    bodies,
    close: () => server.shutdown(),
  };
}

/** A request to the replay server (the shape the loop builds). */
export function replayRequest(
  format: ApiFormat,
  base: string,
  model: string,
  messages: LlmMessage[],
  tools: ToolSpec[] = [],
  providerId = "p",
): StreamRequest {
  return {
    provider: {
      id: providerId,
      name: providerId,
      format,
      baseUrl: base,
      apiKey: "sk-test",
      enabled: true,
      models: [],
    },
    model: {
      id: model,
      name: model,
      enabled: true,
      contextWindow: null,
      maxOutput: null,
      vision: null,
      effortLevels: null,
      defaultEffort: null,
      source: "manual",
      price: null,
    },
    system: "You are a test.",
    messages,
    tools,
    effort: "default",
    maxTokens: 4096,
    cacheKey: "task-1",
  };
}

/** Entries kept in memory (the writer's sink), in order. */
export class MemoryEntries implements EntrySink {
  list: Entry[] = [];
  append(e: Parameters<EntrySink["append"]>[0]): Entry {
    const entry: Entry = {
      ...e,
      meta: e.meta ?? {},
      pos: this.list.length + 1,
      createdAt: 0,
      updatedAt: 0,
    } as Entry;
    this.list.push(entry);
    return entry;
  }
  upsert(entry: Entry): void {
    const i = this.list.findIndex((x) => x.id === entry.id);
    if (i >= 0) this.list[i] = structuredClone(entry);
  }
  latest(_taskId: string, limit: number): Entry[] {
    return this.list.slice(-limit).map((e) => structuredClone(e));
  }
  deleteAfter(_taskId: string, pos: number): number {
    const n = this.list.length - pos;
    this.list = this.list.slice(0, pos);
    return n;
  }
  count(): number {
    return this.list.length;
  }
}

/** A tool that answers `result` to every call (any arguments). */
export function fakeTool(name: string, result = `${name} done`): Tool {
  return {
    name,
    description: `The ${name} tool`,
    parameters: { type: "object", properties: {} },
    kind: "read",
    placement: "main",
    traits: {},
    parse: (args: unknown) => ({ ok: true, args }),
    execute: () => Promise.resolve({ content: result, isError: false }),
    run: () => Promise.resolve({ content: result, isError: false }),
  } as unknown as Tool;
}

export interface RecordedRun {
  outcome: LoopOutcome;
  entries: Entry[];
  /** The conversation after the run (what the next step or turn sends). */
  messages: LlmMessage[];
  bodies: Record<string, unknown>[];
}

/**
 * Runs the agent loop on `messages` against recorded answers (one per step) with the
 * named tools, then closes the server.
 */
export async function runRecorded(opts: {
  format: ApiFormat;
  model: string;
  streams: string[][];
  /** Another server to ask instead (e.g. the mock LLM); `streams` is then unused. */
  base?: string;
  tools?: string[];
  messages?: LlmMessage[];
  maxSteps?: number;
  providerId?: string;
}): Promise<RecordedRun> {
  const server = opts.base
    ? { base: opts.base, bodies: [] as Record<string, unknown>[], close: () => Promise.resolve() }
    : replayServer(opts.format, opts.streams);
  const sink = new MemoryEntries();
  let n = 0;
  const writer = new TimelineWriter(
    "t1",
    sink,
    { publish: () => {} },
    (p) => `${p}${++n}`,
    () => 1000,
    0,
  );
  const tools = new ToolRegistry((opts.tools ?? []).map((t) => fakeTool(t)));
  const messages: LlmMessage[] = opts.messages ??
    [{ role: "user", content: [{ type: "text", text: "go" }] }];
  try {
    const host = {
      adapter: await adapterFor(opts.format),
      buildRequest: (m: LlmMessage[]) =>
        replayRequest(opts.format, server.base, opts.model, m, tools.specs(), opts.providerId),
      messages,
      tools,
      workspace: "/nonexistent",
      maxSteps: opts.maxSteps ?? 10,
      signal: new AbortController().signal,
      now: () => 1000,
    };
    const outcome = await driveLoop(host, (ev) => writer.apply(ev));
    return { outcome, entries: sink.list, messages: host.messages, bodies: server.bodies };
  } finally {
    await server.close();
  }
}

/** The parts of the run's assistant entries, by type (what the timeline shows). */
export const partsOf = (entries: Entry[]): Part[] =>
  entries.filter((e) => e.role === "assistant").flatMap((e) => e.parts);
