/**
 * Writes one run's output into the task timeline, from the loop's events: the streaming
 * assistant entry and its parts in production order, tool results, errors. Persists incrementally (the
 * live entry at most every `flushMs`, immediately at each status change) and
 * publishes small patches (text deltas coalesced by the hub).
 */
import { describeStoreError } from "../../store/errors.ts";
import type { CompactMeta, Entry, Part, TaskEvent } from "../../protocol/index.ts";
import { taskTopic } from "../../protocol/index.ts";
import type { EntrySink } from "../../store/subagents.ts";
import type { EventHub } from "../sessions/hub.ts";
import type { IdFn } from "../../store/ids.ts";
import type { AgentEvent, PartChange, ProviderErrorInfo } from "../../agent/index.ts";
import type { ToolResult } from "../../tools/types.ts";
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

  /** Keeps what the loop reports: the streaming answer, tool results, errors. */
  apply(ev: AgentEvent): void {
    switch (ev.type) {
      case "message_start":
        this.beginAssistant(ev.step, ev.model);
        break;
      case "message_delta":
        this.answerChanged(ev.parts, ev.change);
        break;
      case "message_end":
        this.endAssistant(ev);
        break;
      case "message_discarded":
        this.discardEmptyAssistant();
        break;
      case "tool_call_finished":
        this.toolResult(ev.call, ev.result, ev.ms);
        break;
      case "error":
        this.error(ev.error);
        break;
      case "max_steps":
        this.annotateLast({ truncatedBy: "maxSteps" });
        break;
    }
  }

  /** Starts the assistant entry of one model call. */
  private beginAssistant(step: number, model: string): void {
    this.live = this.entries.append({
      id: this.newId("m"),
      taskId: this.taskId,
      role: "assistant",
      status: "streaming",
      parts: [],
      meta: { step, model, startedAt: this.now() },
    });
    this.publishEntry(this.live);
  }

  private need(): Entry {
    if (!this.live) throw new Error("no assistant entry is streaming");
    return this.live;
  }

  /** The answer's parts changed: text as a small patch, a new part as the whole entry. */
  private answerChanged(parts: readonly Part[], change: PartChange): void {
    const e = this.need();
    e.parts = parts as Part[];
    if (change.kind === "text") {
      const { index, type, delta: text } = change;
      this.hub.publish(
        this.topic,
        { kind: "delta", entryId: e.id, index, type, text },
        `delta:${e.id}:${index}`,
        concatDelta,
      );
    } else if (change.kind === "structure") {
      this.publishEntry(e);
    } else if (change.kind === "args") {
      // Arguments can be large (a whole file): show progress at the persist cadence only.
      this.republish = true;
    }
    this.schedulePersist();
  }

  /** Finishes the assistant entry. */
  private endAssistant(end: Extract<AgentEvent, { type: "message_end" }>): void {
    const e = this.need();
    this.timer?.cancel();
    this.timer = undefined;
    e.parts = end.parts as Part[];
    e.status = end.status;
    e.updatedAt = this.now();
    e.meta = {
      ...e.meta,
      endedAt: this.now(),
      ...(end.stopReason ? { stopReason: end.stopReason } : {}),
      ...(end.usage ? { usage: end.usage } : {}),
      ...(end.cost?.known ? { cost: end.cost.cost } : {}),
      ...(end.cost && !end.cost.known ? { costMissing: end.cost.missing } : {}),
      ...(end.error ? { error: end.error } : {}),
    };
    this.entries.upsert(e);
    this.publishEntry(e);
    this.live = null;
  }

  /**
   * Drops the streaming assistant entry, empty (a request the provider refused before
   * answering, retried after a compaction).
   */
  private discardEmptyAssistant(): void {
    const e = this.live;
    if (!e) return;
    this.timer?.cancel();
    this.timer = undefined;
    this.live = null;
    this.entries.deleteAfter(this.taskId, e.pos - 1);
    this.hub.publish(this.topic, {
      kind: "truncate",
      afterPos: e.pos - 1,
      total: this.entries.count(this.taskId),
    });
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
