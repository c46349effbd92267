/**
 * Encodes a scripted turn as the SSE frames of each wire format, and each format's
 * error body. One frame = one `data:` event (plus `event:` where the format uses it).
 */
import { type MockTurn, pieces, usageOf } from "./scenario.ts";

export type Format = "chat" | "responses" | "anthropic" | "gemini";

const sse = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ""}data: ${
    typeof data === "string" ? data : JSON.stringify(data)
  }\n\n`;

function chatFrames(turn: MockTurn, model: string): string[] {
  const u = usageOf(turn);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    sse({
      id: "chatcmpl-mock",
      object: "chat.completion.chunk",
      created: 0,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const frames = [chunk({ role: "assistant", content: "" })];
  let thinkOpen = false;
  for (const p of pieces(turn)) {
    if (p.kind === "thinking") {
      if (turn.inlineThink) {
        frames.push(chunk({ content: (thinkOpen ? "" : "<think>") + p.text }));
        thinkOpen = true;
      } else frames.push(chunk({ reasoning_content: p.text }));
    } else if (p.kind === "text") {
      frames.push(chunk({ content: (thinkOpen ? "</think>\n\n" : "") + p.text }));
      thinkOpen = false;
    } else if (p.kind === "tool_start") {
      frames.push(
        chunk({
          tool_calls: [{
            index: p.index,
            id: p.id,
            type: "function",
            function: { name: p.name, arguments: "" },
          }],
        }),
      );
    } else if (p.kind === "tool_args") {
      frames.push(chunk({ tool_calls: [{ index: p.index, function: { arguments: p.json } }] }));
    }
  }
  if (thinkOpen) frames.push(chunk({ content: "</think>" }));
  if (turn.stopReason === "refusal") frames.push(chunk({ refusal: "I can't help with that." }));
  const finish = turn.toolCalls?.length
    ? "tool_calls"
    : turn.stopReason === "max_tokens"
    ? "length"
    : turn.stopReason === "content_filter"
    ? "content_filter"
    : "stop";
  frames.push(chunk({}, finish));
  frames.push(sse({
    id: "chatcmpl-mock",
    object: "chat.completion.chunk",
    created: 0,
    model,
    choices: [],
    usage: {
      prompt_tokens: u.input + u.cacheRead,
      completion_tokens: u.output,
      total_tokens: u.input + u.cacheRead + u.output,
      prompt_tokens_details: { cached_tokens: u.cacheRead },
    },
  }));
  frames.push(sse("[DONE]"));
  return frames;
}

function responsesFrames(turn: MockTurn, model: string): string[] {
  const u = usageOf(turn);
  const frames: string[] = [];
  const ev = (type: string, body: Record<string, unknown>) =>
    frames.push(sse({ type, ...body }, type));
  ev("response.created", {
    response: { id: "resp_mock", status: "in_progress", model, output: [] },
  });
  let out = -1;
  let open: "reasoning" | "message" | null = null;
  /** What the open item streamed: its done event carries it whole, as the real API's does
   * (Codex takes the final message from there, not from the deltas). */
  let streamed = "";
  const close = () => {
    if (open) {
      const id = `${open}_${out}`;
      ev("response.output_item.done", {
        output_index: out,
        item: open === "message"
          ? {
            type: "message",
            id,
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: streamed, annotations: [] }],
          }
          : { type: "reasoning", id, summary: [{ type: "summary_text", text: streamed }] },
      });
    }
    open = null;
    streamed = "";
  };
  for (const p of pieces(turn)) {
    if (p.kind === "thinking") {
      if (open !== "reasoning") {
        close();
        out++;
        open = "reasoning";
        ev("response.output_item.added", {
          output_index: out,
          item: { type: "reasoning", id: `reasoning_${out}`, summary: [] },
        });
      }
      streamed += p.text;
      ev("response.reasoning_summary_text.delta", {
        item_id: `reasoning_${out}`,
        output_index: out,
        summary_index: 0,
        delta: p.text,
      });
    } else if (p.kind === "text") {
      if (open !== "message") {
        close();
        out++;
        open = "message";
        ev("response.output_item.added", {
          output_index: out,
          item: { type: "message", id: `message_${out}`, role: "assistant", content: [] },
        });
      }
      streamed += p.text;
      ev("response.output_text.delta", {
        item_id: `message_${out}`,
        output_index: out,
        content_index: 0,
        delta: p.text,
      });
    } else if (p.kind === "tool_start") {
      close();
      out++;
      ev("response.output_item.added", {
        output_index: out,
        item: {
          type: "function_call",
          id: `fc_${p.index}`,
          call_id: p.id,
          name: p.name,
          arguments: "",
        },
      });
    } else if (p.kind === "tool_args") {
      ev("response.function_call_arguments.delta", {
        item_id: `fc_${p.index}`,
        output_index: out,
        delta: p.json,
      });
    } else if (p.kind === "tool_end") {
      const args = JSON.stringify(p.args);
      ev("response.function_call_arguments.done", {
        item_id: `fc_${p.index}`,
        output_index: out,
        arguments: args,
      });
      ev("response.output_item.done", {
        output_index: out,
        item: {
          type: "function_call",
          id: `fc_${p.index}`,
          call_id: p.id,
          name: p.name,
          arguments: args,
          status: "completed",
        },
      });
    }
  }
  if (turn.stopReason === "refusal") {
    ev("response.refusal.delta", { item_id: "msg_refusal", delta: "I can't help with that." });
  }
  close();
  ev("response.completed", {
    response: {
      id: "resp_mock",
      status: turn.stopReason === "max_tokens" || turn.stopReason === "content_filter"
        ? "incomplete"
        : "completed",
      incomplete_details: turn.stopReason === "content_filter"
        ? { reason: "content_filter" }
        : turn.stopReason === "max_tokens"
        ? { reason: "max_output_tokens" }
        : null,
      model,
      output: [],
      usage: {
        input_tokens: u.input + u.cacheRead,
        output_tokens: u.output,
        total_tokens: u.input + u.cacheRead + u.output,
        input_tokens_details: { cached_tokens: u.cacheRead },
      },
    },
  });
  return frames;
}

let answers = 0;

function anthropicFrames(turn: MockTurn, model: string): string[] {
  const u = usageOf(turn);
  const frames: string[] = [];
  const ev = (type: string, body: Record<string, unknown>) =>
    frames.push(sse({ type, ...body }, type));
  ev("message_start", {
    message: {
      // One id per answer: Claude Code merges streamed messages that share an id.
      id: `msg_mock_${++answers}`,
      type: "message",
      role: "assistant",
      model,
      content: [],
      usage: {
        input_tokens: u.input,
        output_tokens: 1,
        cache_read_input_tokens: u.cacheRead,
        cache_creation_input_tokens: u.cacheWrite,
      },
    },
  });
  let block = -1;
  let open: string | null = null;
  const close = () => {
    if (open === "thinking") {
      ev("content_block_delta", {
        index: block,
        delta: { type: "signature_delta", signature: "mock-signature" },
      });
    }
    if (open) ev("content_block_stop", { index: block });
    open = null;
  };
  for (const p of pieces(turn)) {
    if (p.kind === "thinking" || p.kind === "text") {
      if (open !== p.kind) {
        close();
        block++;
        open = p.kind;
        ev("content_block_start", {
          index: block,
          content_block: p.kind === "text"
            ? { type: "text", text: "" }
            : { type: "thinking", thinking: "" },
        });
      }
      ev("content_block_delta", {
        index: block,
        delta: p.kind === "text"
          ? { type: "text_delta", text: p.text }
          : { type: "thinking_delta", thinking: p.text },
      });
    } else if (p.kind === "tool_start") {
      close();
      block++;
      open = "tool_use";
      ev("content_block_start", {
        index: block,
        content_block: { type: "tool_use", id: p.id, name: p.name, input: {} },
      });
    } else if (p.kind === "tool_args") {
      ev("content_block_delta", {
        index: block,
        delta: { type: "input_json_delta", partial_json: p.json },
      });
    }
  }
  close();
  const stop = turn.toolCalls?.length
    ? "tool_use"
    : turn.stopReason === "max_tokens"
    ? "max_tokens"
    : turn.stopReason === "refusal" || turn.stopReason === "content_filter"
    ? "refusal"
    : "end_turn";
  ev("message_delta", {
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: u.output },
  });
  ev("message_stop", {});
  return frames;
}

function geminiFrames(turn: MockTurn): string[] {
  const u = usageOf(turn);
  const frames: string[] = [];
  const chunk = (parts: unknown[], extra: Record<string, unknown> = {}) =>
    frames.push(sse({ candidates: [{ content: { role: "model", parts }, index: 0, ...extra }] }));
  for (const p of pieces(turn)) {
    if (p.kind === "thinking") chunk([{ text: p.text, thought: true }]);
    else if (p.kind === "text") chunk([{ text: p.text }]);
    else if (p.kind === "tool_end") {
      chunk([{ functionCall: { name: p.name, args: p.args }, thoughtSignature: `sig-${p.index}` }]);
    }
  }
  frames.push(sse({
    candidates: [{
      content: { role: "model", parts: [] },
      finishReason: turn.stopReason === "max_tokens"
        ? "MAX_TOKENS"
        : turn.stopReason === "refusal" || turn.stopReason === "content_filter"
        ? "SAFETY"
        : "STOP",
      index: 0,
    }],
    usageMetadata: {
      promptTokenCount: u.input + u.cacheRead,
      candidatesTokenCount: u.output,
      cachedContentTokenCount: u.cacheRead,
      totalTokenCount: u.input + u.cacheRead + u.output,
    },
  }));
  return frames;
}

/**
 * How many trailing frames carry each format's end marker: chat's finish_reason chunk,
 * usage and `[DONE]`; `response.completed`; `message_stop`; Gemini's finishReason.
 */
export const END_FRAMES: Record<Format, number> = {
  chat: 3,
  responses: 1,
  anthropic: 1,
  gemini: 1,
};

export function framesFor(format: Format, turn: MockTurn, model: string): string[] {
  switch (format) {
    case "chat":
      return chatFrames(turn, model);
    case "responses":
      return responsesFrames(turn, model);
    case "anthropic":
      return anthropicFrames(turn, model);
    case "gemini":
      return geminiFrames(turn);
  }
}

/** The error body each format uses. */
export function errorBody(format: Format, status: number, message: string): unknown {
  if (format === "anthropic") {
    return {
      type: "error",
      error: { type: status === 429 ? "rate_limit_error" : "api_error", message },
    };
  }
  if (format === "gemini") return { error: { code: status, message, status: "ERROR" } };
  return { error: { message, type: "mock_error", code: String(status) } };
}

/** Each format's refusal of a request longer than the context window (as the real APIs word it). */
export function overflowBody(format: Format, tokens: number, limit: number): unknown {
  if (format === "anthropic") {
    return {
      type: "error",
      error: {
        type: "invalid_request_error",
        message: `prompt is too long: ${tokens} tokens > ${limit} maximum`,
      },
    };
  }
  if (format === "gemini") {
    return {
      error: {
        code: 400,
        message:
          `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${limit}).`,
        status: "INVALID_ARGUMENT",
      },
    };
  }
  return {
    error: {
      message:
        `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
      type: "invalid_request_error",
      param: "messages",
      code: "context_length_exceeded",
    },
  };
}
