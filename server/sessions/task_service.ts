/**
 * Task lifecycle and timeline writes. The one place that changes tasks, so every
 * change is persisted first and then published to the clients.
 */
import type { Entry, Part, TaskGoal, TaskSettings, TaskSummary } from "../../protocol/index.ts";
import { CLEAR_KIND, TASKS_TOPIC, taskTopic } from "../../protocol/index.ts";
import type { Repos } from "../../store/store.ts";
import type { IdFn } from "../../store/ids.ts";
import type { EventHub } from "./hub.ts";
import { OpError } from "../errors.ts";
import { getSettings } from "../providers/catalog.ts";
import { bindOptions } from "./task_options.ts";
import { wideFolderReason } from "../files/wide_folder.ts";
import { APPROVAL_RANK } from "./safety.ts";

/** First 30 characters of the first line: the immediate title of a new task. */
export function quickTitle(text: string): string {
  const line = text.trim().split("\n")[0].trim().replace(/\s+/g, " ");
  const chars = [...line];
  return chars.length > 30 ? chars.slice(0, 30).join("") + "…" : line || "New task";
}

export class TaskService {
  /** `home`: the data folder (a project that holds it counts as too wide). */
  constructor(
    private repos: Repos,
    private hub: EventHub,
    private newId: IdFn,
    private home: string | null = null,
  ) {}

  /** An id for a task made later (its worktree is named after it first). */
  newTaskId(): string {
    return this.newId("t");
  }

  /** Every task, or only those of `ids` that exist (in that order). */
  list(ids?: string[]): TaskSummary[] {
    if (!ids) return this.repos.tasks.list();
    return ids.map((id) => this.repos.tasks.get(id)).filter((t): t is TaskSummary => t !== null);
  }

  get(id: string): TaskSummary {
    const t = this.repos.tasks.get(id);
    if (!t) throw new OpError("not_found", `task ${id} does not exist`);
    return t;
  }

  create(
    args: {
      title?: string;
      projectPath?: string | null;
      message?: string;
      /** Attachment parts of the first message (after its text). */
      parts?: Part[];
      /** `meta` of the first message (e.g. the expansion of a slash command). */
      meta?: Record<string, unknown>;
      options?: Partial<TaskSettings>;
      /** The id, when it had to be known before (a worktree is named after it). */
      id?: string;
      /** A goal set with `/goal` while creating the task. */
      goal?: TaskSettings["goal"];
    },
  ): {
    task: TaskSummary;
    entry: Entry | null;
  } {
    const { tasks, entries } = this.repos;
    const firstFile = args.parts?.find((p) => typeof p.data?.name === "string")?.data?.name;
    const title = args.title ??
      (args.message?.trim()
        ? quickTitle(args.message)
        : typeof firstFile === "string"
        ? firstFile
        : args.goal
        ? quickTitle(args.goal.text)
        : "New task");
    // Every open option takes today's default and keeps it (a later change is for new tasks).
    const bound = bindOptions(args.options, getSettings(this.repos));
    // In a folder too wide for an agent (the root, the home folder…) changes are asked
    // for, whatever the default, unless this task itself was given a looser mode.
    if (
      args.projectPath && args.options?.approval === undefined &&
      bound.approval !== null && APPROVAL_RANK[bound.approval] < APPROVAL_RANK.ask &&
      wideFolderReason(args.projectPath, this.home ?? "") !== null
    ) bound.approval = "ask";
    const out = entries.tx(() => {
      const t = tasks.create({
        id: args.id ?? this.newId("t"),
        title,
        projectPath: args.projectPath ?? null,
        settings: {
          ...bound,
          ...(args.title ? { titleLocked: true } : {}),
          ...(args.goal ? { goal: args.goal } : {}),
          ...(args.options?.assistantId ? { assistantId: args.options.assistantId } : {}),
          ...(args.options?.mcpServers ? { mcpServers: args.options.mcpServers } : {}),
          ...(args.options?.worktree ? { worktree: args.options.worktree } : {}),
          ...headless(args.options),
        },
      });
      const entry = args.message !== undefined
        ? this.appendUser(t.id, args.message, args.parts, args.meta)
        : null;
      return { task: tasks.get(t.id)!, entry };
    });
    this.publishTask(out.task);
    if (out.entry) this.publishEntry(out.entry);
    return out;
  }

  /** A user rename also stops automatic titles for this task. */
  rename(id: string, title: string): TaskSummary {
    const t = this.get(id);
    this.repos.tasks.setSettings(id, { ...t.settings, titleLocked: true });
    return this.changed(this.repos.tasks.rename(id, title.trim() || title), id);
  }

  /**
   * Per-task model/effort/approval/sandbox. Never touches defaults; null picks the system
   * default of now, bound like a new task's option (it does not follow the default later).
   */
  setOptions(
    id: string,
    o:
      & Partial<
        Pick<TaskSettings, "model" | "effort" | "approval" | "maxSteps" | "appendSystemPrompt">
      >
      & { sandbox?: TaskSettings["sandbox"] | null; rules?: TaskSettings["rules"] },
  ): TaskSummary {
    const t = this.get(id);
    const next: TaskSettings = { ...t.settings, ...headless({ ...o, rules: undefined }) };
    // Rules given here come before the task's own (a deny still wins wherever it is).
    if (o.rules) next.rules = [...o.rules, ...(t.settings.rules ?? [])];
    if (o.model !== undefined) next.model = o.model;
    if (o.effort !== undefined) next.effort = o.effort;
    if (o.approval !== undefined) next.approval = o.approval;
    if (o.sandbox === null) delete next.sandbox;
    else if (o.sandbox !== undefined) next.sandbox = o.sandbox;
    const bound = bindOptions(next, getSettings(this.repos));
    return this.changed(this.repos.tasks.setSettings(id, { ...next, ...bound }), id);
  }

  /** Publishes a task changed elsewhere (runs, titles). */
  publish(task: TaskSummary): void {
    this.publishTask(task);
  }

  pin(id: string, pinned: boolean): TaskSummary {
    return this.changed(this.repos.tasks.pin(id, pinned), id);
  }

  markRead(id: string): TaskSummary {
    return this.changed(this.repos.tasks.markRead(id), id);
  }

  delete(id: string): void {
    if (!this.repos.tasks.delete(id)) throw new OpError("not_found", `task ${id} does not exist`);
    this.hub.publish(TASKS_TOPIC, { kind: "delete", id });
    this.hub.publish(taskTopic(id), { kind: "deleted" });
  }

  /** Appends a user message to an existing task (`extra`: attachment parts after the text). */
  send(id: string, text: string, extra: Part[] = [], meta?: Record<string, unknown>): Entry {
    this.get(id);
    const entry = this.repos.entries.tx(() => this.appendUser(id, text, extra, meta));
    this.publishTask(this.repos.tasks.get(id)!);
    this.publishEntry(entry);
    return entry;
  }

  snapshot(id: string, limit: number): { task: TaskSummary; entries: Entry[]; total: number } {
    const task = this.get(id);
    return {
      task,
      entries: this.repos.entries.latest(id, limit),
      total: this.repos.entries.count(id),
    };
  }

  /** Sets, pauses or clears (null) the task's goal. */
  setGoal(id: string, goal: TaskGoal | null): TaskSummary {
    const t = this.get(id);
    return this.changed(this.repos.tasks.setSettings(id, { ...t.settings, goal }), id);
  }

  /**
   * A note of the task's own (its worktree's setup): appended when new (no id), replaced
   * when given back with its id; every client is shown it.
   */
  note(
    taskId: string,
    e: Omit<Entry, "taskId" | "pos" | "createdAt" | "updatedAt"> | Entry,
  ): Entry {
    let entry: Entry;
    if (!e.id) {
      entry = this.repos.entries.append({ ...e, id: this.newId("m"), taskId });
    } else {
      entry = { ...(e as Entry), updatedAt: Date.now() };
      this.repos.entries.upsert(entry);
    }
    this.publishEntry(entry);
    return entry;
  }

  /**
   * `/clear`: a marker entry after which the model starts afresh (history.ts sends
   * nothing before it); the timeline above it stays as it was.
   */
  clearMarker(id: string, meta: Record<string, unknown> = {}): Entry {
    this.get(id);
    const entry = this.repos.entries.append({
      id: this.newId("m"),
      taskId: id,
      role: "system",
      status: "done",
      parts: [{ type: "text", text: "Conversation cleared" }],
      meta: { ...meta, kind: CLEAR_KIND },
    });
    this.repos.tasks.touch(id, false);
    this.publishTask(this.repos.tasks.get(id)!);
    this.publishEntry(entry);
    return entry;
  }

  private appendUser(
    taskId: string,
    text: string,
    extra: Part[] = [],
    meta?: Record<string, unknown>,
  ): Entry {
    const entry = this.repos.entries.append({
      id: this.newId("m"),
      taskId,
      role: "user",
      status: "done",
      parts: [{ type: "text", text }, ...extra],
      ...(meta && Object.keys(meta).length ? { meta } : {}),
    });
    this.repos.tasks.touch(taskId, false);
    return entry;
  }

  private changed(t: TaskSummary | null, id: string): TaskSummary {
    if (!t) throw new OpError("not_found", `task ${id} does not exist`);
    this.publishTask(t);
    return t;
  }

  private publishTask(task: TaskSummary): void {
    this.hub.publish(TASKS_TOPIC, { kind: "upsert", task }, `task-upsert:${task.id}`);
  }

  private publishEntry(entry: Entry): void {
    this.hub.publish(taskTopic(entry.taskId), { kind: "entry", entry }, `entry:${entry.id}`);
  }
}

/** The options a headless run sets (absent ones left out). */
function headless(
  o: Pick<Partial<TaskSettings>, "maxSteps" | "appendSystemPrompt" | "rules"> | undefined,
): Partial<TaskSettings> {
  return {
    ...(o?.maxSteps ? { maxSteps: o.maxSteps } : {}),
    ...(o?.appendSystemPrompt ? { appendSystemPrompt: o.appendSystemPrompt } : {}),
    ...(o?.rules?.length ? { rules: o.rules } : {}),
  };
}
