/**
 * A local mock LLM server speaking the four wire formats, driven by scenarios:
 *   POST /v1/chat/completions                          (openai-chat-completions)
 *   POST /v1/responses                                 (openai-responses)
 *   POST /v1/messages                                  (anthropic-messages)
 *   POST /v1beta/models/{model}:streamGenerateContent  (google-generative-ai)
 *   POST /openai/deployments/{deployment}/chat/completions?api-version=…  (Azure OpenAI)
 *   GET  /v1/models                                    (rich metadata)
 * The model id names the scenario; the turn answered is the number of assistant turns
 * already in the request's history (so it is stateless and parallel-safe), except for
 * `fail.times` and `cut.times`, counted per scenario turn.
 *
 * Control: POST /_mock/scenarios {name, scenario}; GET /_mock/requests?model=NAME;
 * POST /_mock/reset; POST /_mock/release {gate} (see `MockTurn.hold`).
 *
 * Usage: deno task mock-llm [--port 8765]
 */
import {
  BUILTIN_SCENARIOS,
  type MockTurn,
  requestTokens,
  type Scenario,
} from "./mock_llm/scenario.ts";
import { END_FRAMES, errorBody, type Format, framesFor, overflowBody } from "./mock_llm/formats.ts";

export interface RecordedRequest {
  path: string;
  model: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** When the request arrived, in ms since the epoch (sub-ms: `performance.timeOrigin` + now). */
  at: number;
  /** When the answer was fully sent (stream closed or refused), same clock; absent while streaming. */
  doneAt?: number;
  /** Size of the request body in bytes, as received. */
  bytes: number;
}

/** A clock shared with the process that runs the mock (benchmarks compare with it). */
const now = () => performance.timeOrigin + performance.now();

export interface MockLlm {
  base: string;
  register(name: string, scenario: Scenario): void;
  /** Opens the gate `gate`: answers held at it (`MockTurn.hold`) go on, later ones pass. */
  release(gate: string): void;
  requests(model?: string): RecordedRequest[];
  close(): Promise<void>;
}

/** Counts assistant turns (runs of consecutive assistant-side items) in a history. */
function assistantTurns(
  items: unknown[],
  isAssistant: (x: Record<string, unknown>) => boolean,
): number {
  let n = 0;
  let prev = false;
  for (const x of items) {
    const a = isAssistant(x as Record<string, unknown>);
    if (a && !prev) n++;
    prev = a;
  }
  return n;
}

function historyTurns(format: Format, body: Record<string, unknown>): number {
  switch (format) {
    case "chat":
    case "anthropic":
      return assistantTurns((body.messages as unknown[]) ?? [], (m) => m.role === "assistant");
    case "responses":
      return assistantTurns(
        Array.isArray(body.input) ? body.input : [],
        (m) => m.role === "assistant" || m.type === "function_call" || m.type === "reasoning",
      );
    case "gemini":
      return assistantTurns((body.contents as unknown[]) ?? [], (m) => m.role === "model");
  }
}

/** The last message of a request (where a client puts its newest instruction). */
function lastItem(format: Format, body: Record<string, unknown>): unknown {
  const list = format === "responses"
    ? body.input
    : format === "gemini"
    ? body.contents
    : body.messages;
  return Array.isArray(list) ? list.at(-1) : undefined;
}

/**
 * Tool-call arguments `"$match:<regex>"` become what the regex finds in the request
 * (its first group, else the whole match), so a script can pass on an id a tool
 * returned earlier (e.g. a background sub-agent's).
 */
function withMatches(turn: MockTurn, request: string): MockTurn {
  if (!turn.toolCalls?.length) return turn;
  const text = request.replace(/\\"/g, '"');
  const fill = (v: unknown): unknown => {
    if (typeof v !== "string" || !v.startsWith("$match:")) return v;
    const m = new RegExp(v.slice(7)).exec(text);
    return m ? (m[1] ?? m[0]) : v;
  };
  return {
    ...turn,
    toolCalls: turn.toolCalls.map((c) => ({
      ...c,
      args: Object.fromEntries(Object.entries(c.args).map(([k, v]) => [k, fill(v)])),
    })),
  };
}

/** The system prompt and the first user message of a request, as text (for branches). */
function openingText(format: Format, body: Record<string, unknown>): string {
  const str = (v: unknown) => typeof v === "string" ? v : JSON.stringify(v ?? "");
  const list = format === "gemini"
    ? body.contents
    : format === "responses"
    ? body.input
    : body.messages;
  const items = Array.isArray(list) ? list as Record<string, unknown>[] : [];
  const system = format === "anthropic"
    ? str(body.system)
    : format === "responses"
    ? str(body.instructions)
    : format === "gemini"
    ? str(body.systemInstruction)
    : str(items.find((m) => m.role === "system")?.content);
  const user = items.find((m) => m.role === "user");
  return `${system}\n${str(user?.content ?? user?.parts)}`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function startMockLlm(opts: { port?: number; quiet?: boolean } = {}): MockLlm {
  const scenarios = new Map<string, Scenario>(Object.entries(BUILTIN_SCENARIOS));
  const attempts = new Map<string, number>();
  /** Requests answered per model (`sequential` scenarios). */
  const sequence = new Map<string, number>();
  const recorded: RecordedRequest[] = [];
  /** Gates of held answers (`MockTurn.hold`), by name. */
  const gates = new Map<string, { opened: Promise<void>; open: () => void }>();
  const gate = (name: string) => {
    let g = gates.get(name);
    if (!g) {
      const { promise, resolve } = Promise.withResolvers<void>();
      g = { opened: promise, open: resolve };
      gates.set(name, g);
    }
    return g;
  };

  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

  /** `modelFromPath` for Gemini (the model is in the URL); others name it in the body. */
  async function answer(
    format: Format,
    modelFromPath: string | null,
    req: Request,
    path: string,
  ): Promise<Response> {
    const at = now();
    let body: Record<string, unknown>;
    let raw: Uint8Array;
    try {
      raw = await req.bytes();
      body = JSON.parse(new TextDecoder().decode(raw));
    } catch {
      return json(400, errorBody(format, 400, "request body is not JSON"));
    }
    const model = modelFromPath ?? (typeof body.model === "string" ? body.model : "");
    const headers: Record<string, string> = {};
    req.headers.forEach((v, k) => (headers[k] = v));
    const record: RecordedRequest = { path, model, headers, body, at, bytes: raw.byteLength };
    recorded.push(record);
    if (recorded.length > 5000) recorded.shift();
    const refuse = (status: number, payload: unknown) => {
      record.doneAt = now();
      return json(status, payload);
    };

    const scenario = scenarios.get(model);
    if (!scenario) return refuse(404, errorBody(format, 404, `model ${model} not found`));
    if (format !== "gemini" && body.stream !== true) {
      return refuse(400, errorBody(format, 400, "the mock answers streaming requests only"));
    }
    const size = requestTokens(body);
    if (scenario.contextLimit !== undefined && size > scenario.contextLimit) {
      return refuse(400, overflowBody(format, size, scenario.contextLimit));
    }
    const last = JSON.stringify(lastItem(format, body) ?? null);
    const matched = scenario.match?.find((m) => last.includes(m.lastIncludes))?.turn;
    const opening = openingText(format, body);
    const script = scenario.branches?.find((b) => opening.includes(b.when)) ?? scenario;
    let index = historyTurns(format, body);
    if (!matched && scenario.sequential) {
      index = sequence.get(model) ?? 0;
      sequence.set(model, index + 1);
    }
    const scripted = matched ?? script.turns[Math.min(index, script.turns.length - 1)];
    if (!scripted || (!matched && index >= script.turns.length && !script.repeatLast)) {
      return refuse(400, errorBody(format, 400, `scenario ${model} has no turn ${index}`));
    }
    const turn = scenario.usageFromRequest
      ? { ...scripted, usage: { ...scripted.usage, input: size } }
      : scripted;
    if (turn.fail) {
      const key = `${model}#${index}`;
      const n = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, n);
      if (turn.fail.times === undefined || n <= turn.fail.times) {
        return refuse(
          turn.fail.status,
          errorBody(format, turn.fail.status, turn.fail.message ?? `mock failure ${n}`),
        );
      }
    }
    const frames = framesFor(format, withMatches(turn, JSON.stringify(body)), model);
    let cutAt = Infinity;
    if (turn.cut) {
      const key = `cut:${model}#${index}`;
      const n = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, n);
      if (turn.cut.times === undefined || n <= turn.cut.times) {
        cutAt = turn.cut.beforeEnd ? frames.length - END_FRAMES[format] : turn.cut.afterChunks ?? 0;
      }
    }
    const enc = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        try {
          if (turn.firstDelayMs) await sleep(turn.firstDelayMs);
          for (let i = 0; i < frames.length; i++) {
            if (i >= cutAt) {
              // Let the queued chunks go out first: erroring a stream drops its queue.
              if (turn.cut?.abrupt) {
                await sleep(50);
                controller.error(new Error("mock: connection cut"));
              } else controller.close();
              return;
            }
            if (turn.hold && i === (turn.hold.afterChunks ?? 1)) {
              await gate(turn.hold.gate).opened;
            }
            if (turn.noise) {
              controller.enqueue(enc.encode(": keep-alive\n\nevent: mock_unknown\ndata: {}\n\n"));
            }
            // Split each frame in two to exercise parsers across chunk boundaries.
            const f = frames[i];
            const cut = Math.max(1, Math.floor(f.length / 2));
            controller.enqueue(enc.encode(f.slice(0, cut)));
            if (turn.delayMs) await sleep(turn.delayMs);
            controller.enqueue(enc.encode(f.slice(cut)));
            if (turn.malformed && i === 1) {
              controller.enqueue(enc.encode("data: {this is not json\n\n"));
            }
          }
          controller.close();
        } catch {
          // The client went away (stop/abort): nothing more to send.
        } finally {
          record.doneAt = now();
        }
      },
    });
    return new Response(stream, {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    });
  }

  function models(): Response {
    const data = [...scenarios.entries()].map(([id, s]) => ({
      id,
      object: "model",
      owned_by: "mock",
      ...(s.meta ?? {}),
    }));
    return json(200, { object: "list", data });
  }

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: opts.port ?? 0, onListen: () => {} },
    async (req) => {
      const url = new URL(req.url);
      const p = url.pathname;
      if (req.method === "POST" && p === "/_mock/scenarios") {
        const { name, scenario } = await req.json();
        scenarios.set(name, scenario);
        return json(200, { ok: true });
      }
      if (req.method === "GET" && p === "/_mock/requests") {
        const m = url.searchParams.get("model");
        return json(200, recorded.filter((r) => !m || r.model === m));
      }
      if (req.method === "POST" && p === "/_mock/release") {
        const { gate: name } = await req.json();
        gate(String(name)).open();
        return json(200, { ok: true });
      }
      if (req.method === "POST" && p === "/_mock/reset") {
        attempts.clear();
        sequence.clear();
        recorded.length = 0;
        return json(200, { ok: true });
      }
      if (req.method === "GET" && p === "/v1/models") return models();
      if (req.method === "POST" && p === "/v1/chat/completions") {
        return answer(
          "chat",
          null,
          req,
          p,
        );
      }
      if (req.method === "POST" && p === "/v1/responses") {
        return answer(
          "responses",
          null,
          req,
          p,
        );
      }
      if (req.method === "POST" && p === "/v1/messages") {
        return answer(
          "anthropic",
          null,
          req,
          p,
        );
      }
      // Azure OpenAI: the deployment (model) is in the path; no api-version, no route.
      const az = p.match(/^\/openai\/deployments\/([^/]+)\/chat\/completions$/);
      if (req.method === "POST" && az) {
        if (!url.searchParams.get("api-version")) {
          return json(404, { error: { code: "404", message: "Resource not found" } });
        }
        return answer("chat", decodeURIComponent(az[1]), req, `${p}${url.search}`);
      }
      const g = p.match(/^\/v1beta\/models\/([^:]+):streamGenerateContent$/);
      if (req.method === "POST" && g) return answer("gemini", decodeURIComponent(g[1]), req, p);
      return json(404, { error: { message: `mock: no route ${req.method} ${p}` } });
    },
  );

  const base = `http://127.0.0.1:${server.addr.port}`;
  if (!opts.quiet) {
    console.log(`mock LLM listening on ${base} (scenarios: ${[...scenarios.keys()].join(", ")})`);
  }
  return {
    base,
    register: (name, s) => void scenarios.set(name, s),
    release: (name) => gate(name).open(),
    requests: (model) => recorded.filter((r) => !model || r.model === model),
    close: () => {
      // A held answer would keep its connection, and the shutdown, waiting.
      for (const g of gates.values()) g.open();
      return server.shutdown();
    },
  };
}

if (import.meta.main) {
  const i = Deno.args.indexOf("--port");
  const port = i >= 0 ? Number(Deno.args[i + 1]) : 8765;
  try {
    startMockLlm({ port });
  } catch (e) {
    console.error(
      e instanceof Deno.errors.AddrInUse
        ? `mock-llm: port ${port} is in use by another program; choose another with --port N`
        : `mock-llm: ${(e as Error).message}`,
    );
    Deno.exit(1);
  }
}
