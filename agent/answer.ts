/**
 * One streamed answer as timeline parts (text, thinking, tool calls, in the order they
 * came) and, when it ends, as the assistant message the conversation goes on with. The
 * loop owns it; each change says what a viewer must redraw.
 */
import type { Part } from "../protocol/domain.ts";
import type { LlmMessage, TextBlock, ThinkingBlock, ToolCallBlock } from "./providers/types.ts";

type AssistantMessage = Extract<LlmMessage, { role: "assistant" }>;

/**
 * What a streamed piece changed: `text` grew `parts[index]` by `delta` (a new index: a
 * part of that type began); `structure` added a part or changed one a viewer must redraw
 * at once; `args` grew a streaming call's argument text (worth showing now and then);
 * `data` changed what is stored only (a signature, opaque reasoning).
 */
export type PartChange =
  | { kind: "text"; index: number; type: "text" | "thinking"; delta: string }
  | { kind: "structure" }
  | { kind: "args" }
  | { kind: "data" };

export class Answer {
  readonly parts: Part[] = [];

  constructor(private now: () => number) {}

  /** Appends streamed text or thinking; a change of kind starts a new part. */
  delta(type: "text" | "thinking", text: string): PartChange {
    let last = this.parts.at(-1);
    if (last?.type !== type) {
      this.closeThinking();
      last = {
        type,
        text: "",
        ...(type === "thinking" ? { data: { startedAt: this.now() } } : {}),
      };
      this.parts.push(last);
    }
    last.text = (last.text ?? "") + text;
    return { kind: "text", index: this.parts.length - 1, type, delta: text };
  }

  /** A signature for the thinking that streamed (sent back with it). */
  signature(sig: string): PartChange {
    const thinking = this.parts.findLast((p) => p.type === "thinking");
    if (thinking) thinking.data = { ...thinking.data, signature: sig };
    return { kind: "data" };
  }

  /** A signature on the text just streamed (Gemini); an empty text part carries it when none did. */
  textSignature(sig: string): PartChange {
    let last = this.parts.at(-1);
    if (last?.type !== "text" || last.data?.signature) {
      this.closeThinking();
      last = { type: "text", text: "" };
      this.parts.push(last);
    }
    last.data = { ...last.data, signature: sig };
    return { kind: "data" };
  }

  /**
   * Opaque reasoning to send back with the message: it belongs to the thinking part that
   * just streamed; reasoning that showed no text gets a (collapsed, empty) part of its own.
   */
  opaque(data: Record<string, unknown>): PartChange {
    let last = this.parts.at(-1);
    let added = false;
    if (last?.type !== "thinking" || last.data?.opaque || last.data?.signature) {
      this.closeThinking();
      last = { type: "thinking", text: "", data: { startedAt: this.now(), endedAt: this.now() } };
      this.parts.push(last);
      added = true;
    }
    last.data = { ...last.data, opaque: data };
    return added ? { kind: "structure" } : { kind: "data" };
  }

  toolCallStart(id: string, name: string): PartChange {
    this.closeThinking();
    this.parts.push({
      type: "tool_call",
      data: { id, name, args: {}, argsText: "", streaming: true },
    });
    return { kind: "structure" };
  }

  toolCallDelta(id: string, delta: string): PartChange | null {
    const p = this.callPart(id);
    if (!p?.data) return null;
    p.data.argsText = String(p.data.argsText ?? "") + delta;
    return { kind: "args" };
  }

  toolCall(call: {
    id: string;
    name: string;
    args: Record<string, unknown>;
    argsError?: string;
    providerData?: Record<string, unknown>;
  }): PartChange {
    let p = this.callPart(call.id);
    if (!p) {
      p = { type: "tool_call" };
      this.parts.push(p);
    }
    p.data = {
      id: call.id,
      name: call.name,
      args: call.args,
      ...(call.argsError ? { argsError: call.argsError } : {}),
      ...(call.providerData ? { providerData: call.providerData } : {}),
    };
    return { kind: "structure" };
  }

  /** Ends the answer: thinking gets its end time, calls lose their streaming state. */
  finish(): void {
    this.closeThinking();
    for (const p of this.parts) {
      if (p.type === "tool_call" && p.data) {
        delete p.data.streaming;
        delete p.data.argsText;
      }
    }
  }

  /** Marks the end time of a thinking block ("Thought for N s"). */
  private closeThinking(): void {
    const last = this.parts.at(-1);
    if (last?.type === "thinking" && last.data && last.data.endedAt === undefined) {
      last.data.endedAt = this.now();
    }
  }

  private callPart(id: string): Part | undefined {
    return this.parts.find((p) => p.type === "tool_call" && p.data?.id === id);
  }
}

/**
 * Timeline parts as the assistant message the model reads (null when nothing in them is
 * for the model). `source` is the `provider/model` that wrote them: its signatures and
 * opaque reasoning go back to it alone.
 */
export function assistantMessage(parts: readonly Part[], source?: string): AssistantMessage | null {
  const content: (TextBlock | ThinkingBlock | ToolCallBlock)[] = [];
  for (const p of parts) {
    const signature = typeof p.data?.signature === "string" ? p.data.signature : undefined;
    if (p.type === "text" && (p.text || signature)) {
      content.push({ type: "text", text: p.text ?? "", ...(signature ? { signature } : {}) });
    } else if (p.type === "thinking" && (p.text || signature || p.data?.opaque)) {
      const opaque = p.data?.opaque as Record<string, unknown> | undefined;
      content.push({
        type: "thinking",
        text: p.text ?? "",
        ...(signature ? { signature } : {}),
        ...(opaque ? { opaque } : {}),
      });
    } else if (p.type === "tool_call" && p.data) {
      content.push({
        type: "tool_call",
        id: String(p.data.id),
        name: String(p.data.name),
        args: (p.data.args ?? {}) as Record<string, unknown>,
        ...(p.data.providerData
          ? { providerData: p.data.providerData as Record<string, unknown> }
          : {}),
      });
    }
  }
  if (!content.length) return null;
  return { role: "assistant", content, ...(source ? { source } : {}) };
}
