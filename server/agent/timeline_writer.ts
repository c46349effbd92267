/**
 * Writes one run's output into the task timeline: the streaming assistant entry and
 * its parts in production order, tool results, errors. Persists incrementally (the
 * live entry at most every `flushMs`, immediately at each status change) and
 * publishes small patches (text deltas coalesced by the hub).
 */
import { describeStoreError } from "../../store/errors.ts";
import type { CostResult } from "../../protocol/pricing.ts";
import type { CompactMeta, Entry, Part, TaskEvent } from "../../protocol/index.ts";
import { taskTopic } from "../../protocol/index.ts";
import type { EntrySink } from "../../store/subagents.ts";
import type { EventHub } from "../sessions/hub.ts";
import type { IdFn } from "../../store/ids.ts";
import type { LlmMessage, StopReason, Usage } from "../providers/types.ts";
import type { ProviderErrorInfo } from "../providers/errors.ts";
import type { ToolResult } from "../../tools/types.ts";
import { assistantMessage } from "./history.ts";
import { type LightTimer, lightTimer } from "../../lib/light_timer.ts";

const concatDelta = (a: TaskEvent, b: TaskEvent): TaskEvent =>
  a.kind === "delta" && b.kind === "delta" ? { ...a, text: a.text + b.text } : b;

export class TimelineWriter {
  private live: Entry | null = null;
  /** The next persist of the streaming entry (not Node's timers: see lib/light_timer.ts). */
  private timer: LightTimer | undefined;
  private republish = false;

  constructor(
    private taskId: string,
    private entries: EntrySink,
    private hub: Pick<EventHub, "publish">,
    private newId: IdFn,
    private now: () => number,
    private flushMs = 250,
  ) {}

  private get topic() {
    return taskTopic(this.taskId);
  }

  private publishEntry(e: Entry): void {
    this.hub.publish(this.topic, { kind: "entry", entry: structuredClone(e) }, `entry:${e.id}`);
  }

  /** Starts the assistant entry of one model call. */
  beginAssistant(meta: Record<string, unknown>): void {
    this.live = this.entries.append({
      id: this.newId("m"),
      taskId: this.taskId,
      role: "assistant",
      status: "streaming",
      parts: [],
      meta: { ...meta, startedAt: this.now() },
    });
    this.publishEntry(this.live);
  }

  private need(): Entry {
    if (!this.live) throw new Error("no assistant entry is streaming");
    return this.live;
  }

  /** Appends streamed text or thinking; a change of kind starts a new part. */
  delta(type: "text" | "thinking", text: string): void {
    const e = this.need();
    let last = e.parts[e.parts.length - 1];
    if (last?.type !== type) {
      this.closeThinking();
      last = {
        type,
        text: "",
        ...(type === "thinking" ? { data: { startedAt: this.now() } } : {}),
      };
      e.parts.push(last);
    }
    last.text = (last.text ?? "") + text;
    this.hub.publish(
      this.topic,
      { kind: "delta", entryId: e.id, index: e.parts.length - 1, type, text },
      `delta:${e.id}:${e.parts.length - 1}`,
      concatDelta,
    );
    this.schedulePersist();
  }

  /** Marks the end time of a thinking block ("Thought for N s"). */
  private closeThinking(): void {
    const last = this.live?.parts[this.live.parts.length - 1];
    if (last?.type === "thinking" && last.data && last.data.endedAt === undefined) {
      last.data.endedAt = this.now();
    }
  }

  signature(sig: string): void {
    const thinking = [...this.need().parts].reverse().find((p) => p.type === "thinking");
    if (thinking) thinking.data = { ...thinking.data, signature: sig };
  }

  /** A signature on the text just streamed (Gemini); an empty text part carries it when none did. */
  textSignature(sig: string): void {
    const e = this.need();
    let last = e.parts[e.parts.length - 1];
    if (last?.type !== "text" || last.data?.signature) {
      this.closeThinking();
      last = { type: "text", text: "" };
      e.parts.push(last);
    }
    last.data = { ...last.data, signature: sig };
    this.schedulePersist();
  }

  /**
   * Opaque reasoning to send back with the message: it belongs to the thinking part that
   * just streamed; reasoning that showed no text gets a (collapsed, empty) part of its own.
   */
  opaque(data: Record<string, unknown>): void {
    const e = this.need();
    let last = e.parts[e.parts.length - 1];
    if (last?.type !== "thinking" || last.data?.opaque || last.data?.signature) {
      this.closeThinking();
      last = { type: "thinking", text: "", data: { startedAt: this.now(), endedAt: this.now() } };
      e.parts.push(last);
      this.publishEntry(e);
    }
    last.data = { ...last.data, opaque: data };
    this.schedulePersist();
  }

  toolCallStart(id: string, name: string): void {
    this.closeThinking();
    this.need().parts.push({
      type: "tool_call",
      data: { id, name, args: {}, argsText: "", streaming: true },
    });
    this.publishEntry(this.need());
  }

  toolCallDelta(id: string, delta: string): void {
    const p = this.findCall(id);
    if (!p?.data) return;
    p.data.argsText = String(p.data.argsText ?? "") + delta;
    // Arguments can be large (a whole file): show progress at the persist cadence only.
    this.republish = true;
    this.schedulePersist();
  }

  toolCall(
    call: {
      id: string;
      name: string;
      args: Record<string, unknown>;
      argsError?: string;
      providerData?: Record<string, unknown>;
    },
  ): void {
    let p = this.findCall(call.id);
    if (!p) {
      p = { type: "tool_call" };
      this.need().parts.push(p);
    }
    p.data = {
      id: call.id,
      name: call.name,
      args: call.args,
      ...(call.argsError ? { argsError: call.argsError } : {}),
      ...(call.providerData ? { providerData: call.providerData } : {}),
    };
    this.publishEntry(this.need());
    this.schedulePersist();
  }

  private findCall(id: string): Part | undefined {
    return this.live?.parts.find((p) => p.type === "tool_call" && p.data?.id === id);
  }

  /** Finishes the assistant entry; returns it as a model message (null if empty). */
  endAssistant(
    status: "done" | "stopped" | "error",
    info: {
      stopReason?: StopReason;
      usage?: Usage;
      /** What the usage cost at the model's price (unknown: the kinds without a price). */
      cost?: CostResult;
      error?: ProviderErrorInfo;
      durationMs?: number;
    },
  ): LlmMessage | null {
    const e = this.need();
    this.closeThinking();
    this.timer?.cancel();
    this.timer = undefined;
    e.status = status;
    e.updatedAt = this.now();
    e.meta = {
      ...e.meta,
      endedAt: this.now(),
      ...(info.stopReason ? { stopReason: info.stopReason } : {}),
      ...(info.usage ? { usage: info.usage } : {}),
      ...(info.cost?.known ? { cost: info.cost.cost } : {}),
      ...(info.cost && !info.cost.known ? { costMissing: info.cost.missing } : {}),
      ...(info.error ? { error: info.error } : {}),
    };
    for (const p of e.parts) {
      if (p.type === "tool_call" && p.data) {
        delete p.data.streaming;
        delete p.data.argsText;
      }
    }
    this.entries.upsert(e);
    this.publishEntry(e);
    this.live = null;
    return assistantMessage(e);
  }

  /**
   * Drops the streaming assistant entry when nothing arrived in it (a request the
   * provider refused before answering, retried after a compaction); false when it has
   * content and must stay.
   */
  discardEmptyAssistant(): boolean {
    const e = this.live;
    if (!e || e.parts.length > 0) return false;
    this.timer?.cancel();
    this.timer = undefined;
    this.live = null;
    this.entries.deleteAfter(this.taskId, e.pos - 1);
    this.hub.publish(this.topic, {
      kind: "truncate",
      afterPos: e.pos - 1,
      total: this.entries.count(this.taskId),
    });
    return true;
  }

  /** Records a tool's result as a `tool` entry. */
  toolResult(call: { id: string; name: string }, result: ToolResult, durationMs: number): void {
    const entry = this.entries.append({
      id: this.newId("m"),
      taskId: this.taskId,
      role: "tool",
      status: result.isError ? "error" : "done",
      parts: [{
        type: "tool_result",
        text: result.content,
        data: {
          toolCallId: call.id,
          name: call.name,
          isError: result.isError,
          ...(result.meta ? { meta: result.meta } : {}),
        },
      }],
      meta: { durationMs },
    });
    this.publishEntry(entry);
  }

  /** An error line in the timeline (provider failure, bad configuration). */
  error(info: ProviderErrorInfo): void {
    const entry = this.entries.append({
      id: this.newId("m"),
      taskId: this.taskId,
      role: "error",
      status: "error",
      parts: [{ type: "text", text: info.message }],
      meta: { error: info },
    });
    this.publishEntry(entry);
  }

  /** A notice of ReinAgent's own (a hook that failed …): shown on the turn, never sent to the model. */
  notice(text: string, meta: Record<string, unknown>): void {
    const entry = this.entries.append({
      id: this.newId("m"),
      taskId: this.taskId,
      role: "system",
      status: "done",
      parts: [{ type: "text", text }],
      meta,
    });
    this.publishEntry(entry);
  }

  /** Records a compaction: the summary that stands for the entries before `meta.keepFrom`. */
  compaction(summary: string, meta: CompactMeta): Entry {
    const entry = this.entries.append({
      id: this.newId("m"),
      taskId: this.taskId,
      role: "compact",
      status: "done",
      parts: [{ type: "text", text: summary }],
      meta: { ...meta },
    });
    this.publishEntry(entry);
    return entry;
  }

  /** Flags the last assistant entry (e.g. truncatedBy: maxSteps). */
  annotateLast(meta: Record<string, unknown>): void {
    const last = this.entries.latest(this.taskId, 20).reverse().find((e) => e.role === "assistant");
    if (!last) return;
    last.meta = { ...last.meta, ...meta };
    last.updatedAt = this.now();
    this.entries.upsert(last);
    this.publishEntry(last);
  }

  /** Writes the streaming entry now (so a snapshot taken next is complete). */
  persistNow(): void {
    if (!this.live) return;
    this.live.updatedAt = this.now();
    this.entries.upsert(this.live);
  }

  private persistFailed = false;

  private schedulePersist(): void {
    this.timer ??= lightTimer(this.flushMs, () => {
      this.timer = undefined;
      if (this.live) {
        this.live.updatedAt = this.now();
        try {
          this.entries.upsert(this.live);
        } catch (e) {
          // A full disk or a locked database must not end the server from a timer: the
          // text stays in memory, every client has it, and the next delta tries again.
          if (!this.persistFailed) {
            console.error(`saving the answer failed: ${describeStoreError(e) ?? e}`);
          }
          this.persistFailed = true;
          return;
        }
        this.persistFailed = false;
        if (this.republish) this.publishEntry(this.live);
      }
      this.republish = false;
    });
  }
}
