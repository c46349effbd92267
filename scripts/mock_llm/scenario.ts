/**
 * Scenario model of the mock LLM server: what a scripted model answers on each turn,
 * independent of the wire format that carries it.
 */

export interface MockToolCall {
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export interface MockTurn {
  thinking?: string;
  text?: string;
  toolCalls?: MockToolCall[];
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  /** Characters per streamed chunk (default 8). Tool-call arguments are split too. */
  chunk?: number;
  /** Delay inside every streamed frame in ms (default 0): it adds up with the answer's length. */
  delayMs?: number;
  /** Wait before the first frame in ms, once per answer (a real model's time to first token). */
  firstDelayMs?: number;
  /**
   * Stop after `afterChunks` frames (default 1) until the gate named `gate` opens
   * (`MockLlm.release(gate)` or POST /_mock/release {gate}): a run that is surely still going
   * for as long as a test needs, then ends at once. A gate once open stays open.
   */
  hold?: { gate: string; afterChunks?: number };
  /** Answer with this HTTP error `times` times before succeeding (forever when absent). */
  fail?: { status: number; message?: string; times?: number };
  /** End the stream early: after `afterChunks` frames, or with `beforeEnd` just before
   * the frames carrying the format's end marker (all content sent). `abrupt` breaks the
   * connection, otherwise it ends cleanly. With `times`, only the first N attempts at
   * this turn are cut (counted like `fail.times`). */
  cut?: { afterChunks?: number; beforeEnd?: boolean; abrupt: boolean; times?: number };
  /** Interleave comments, blank data and unknown events (valid SSE noise). */
  noise?: boolean;
  /** Send one data line that is not JSON after the first chunk. */
  malformed?: boolean;
  /** Chat completions only: send thinking inline as `<think>…</think>` in content. */
  inlineThink?: boolean;
  /** How the answer ends; each format says it its own way (Gemini has no refusal: SAFETY). */
  stopReason?: "end" | "max_tokens" | "refusal" | "content_filter";
}

export interface Scenario {
  turns: MockTurn[];
  /**
   * Other scripts of the same model, for nested conversations (sub-agents): the first
   * whose `when` occurs in the request's system prompt or first user message answers,
   * counting turns within that conversation as usual.
   */
  branches?: { when: string; turns: MockTurn[]; repeatLast?: boolean }[];
  /** When the conversation has more assistant turns than `turns`, repeat the last. */
  repeatLast?: boolean;
  /** Model metadata returned by GET /v1/models. */
  meta?: Record<string, unknown>;
  /** Report `input` usage as the request's size (body characters ÷ 4), as a real model would. */
  usageFromRequest?: boolean;
  /** Refuse requests bigger than this many tokens (body characters ÷ 4) with the format's
   * "context length exceeded" 400. */
  contextLimit?: number;
  /** Answer `turn` when the request's last message contains `lastIncludes` (checked
   * first; such requests do not count for `sequential`). */
  match?: { lastIncludes: string; turn: MockTurn }[];
  /** Answer the turns in the order requests arrive (per model) instead of by the
   * number of assistant turns in the history (which shrinks when a client compacts). */
  sequential?: boolean;
}

/** Estimated tokens of a request body (characters ÷ 4). */
export const requestTokens = (body: unknown): number => Math.ceil(JSON.stringify(body).length / 4);

/** A chunk of the normalised answer, in production order. */
export type Piece =
  | { kind: "thinking"; text: string }
  | { kind: "text"; text: string }
  | { kind: "tool_start"; index: number; id: string; name: string }
  | { kind: "tool_args"; index: number; json: string }
  | { kind: "tool_end"; index: number; id: string; name: string; args: Record<string, unknown> };

function split(s: string, n: number): string[] {
  const chars = [...s];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += n) out.push(chars.slice(i, i + n).join(""));
  return out;
}

/** Flattens a turn into streamed pieces. */
export function pieces(turn: MockTurn): Piece[] {
  const n = turn.chunk ?? 8;
  const out: Piece[] = [];
  if (turn.thinking) {
    for (const t of split(turn.thinking, n)) out.push({ kind: "thinking", text: t });
  }
  if (turn.text) { for (const t of split(turn.text, n)) out.push({ kind: "text", text: t }); }
  (turn.toolCalls ?? []).forEach((c, index) => {
    const id = c.id ?? `call_${index + 1}`;
    out.push({ kind: "tool_start", index, id, name: c.name });
    for (const j of split(JSON.stringify(c.args), n)) {
      out.push({ kind: "tool_args", index, json: j });
    }
    out.push({ kind: "tool_end", index, id, name: c.name, args: c.args });
  });
  return out;
}

export function usageOf(turn: MockTurn) {
  return {
    input: turn.usage?.input ?? 100,
    output: turn.usage?.output ?? 20,
    cacheRead: turn.usage?.cacheRead ?? 0,
    cacheWrite: turn.usage?.cacheWrite ?? 0,
  };
}

/** Built-in scenarios for people and benchmarks (`deno task mock-llm`). */
export const BUILTIN_SCENARIOS: Record<string, Scenario> = {
  "mock-echo": {
    turns: [{
      thinking: "The user said something. I will answer briefly.",
      text: "Hello from the mock model.",
    }],
    repeatLast: true,
    meta: { context_window: 128000, max_output_tokens: 8192, supports_images: false },
  },
  "mock-tools": {
    turns: [
      {
        thinking: "Let me look at the workspace.",
        text: "Listing the folder.",
        toolCalls: [{ name: "list_dir", args: { path: "." } }],
      },
      { text: "Done: I listed the folder." },
    ],
    repeatLast: true,
    meta: {
      context_window: 200000,
      max_output_tokens: 16000,
      input_modalities: ["text", "image"],
      effort: { supported_levels: ["low", "medium", "high"], default_level: "medium" },
    },
  },
  "mock-plain": { turns: [{ text: "plain" }], repeatLast: true },
};
