/**
 * Every event topic the server pushes on and what each one carries, in one map. The
 * server's `EventHub.publish` accepts only a topic of {@link TopicMap} with its payload,
 * and the UI's event handlers get the payload typed by the topic they compare against,
 * so a topic or payload defined here is the one both sides use.
 *
 * A topic is a fixed name (`"tasks"`, `"settings"`, …) or a task's own topic
 * `task:<id>` ({@link taskTopic}). Payloads are discriminated by `kind`.
 */
import type { ApprovalsEvent, Entry, RunState, TaskSummary } from "./domain.ts";
import type { QueuedMessage } from "./composer.ts";
import type { SubagentRun } from "./subagents.ts";
import type { JobInfo } from "./jobs.ts";
import { ASSISTANTS_TOPIC, type AssistantsEvent } from "./assistants.ts";
import { AUTOMATIONS_TOPIC, type AutomationsEvent } from "./automations.ts";
import { HOOKS_TOPIC, type HooksEvent } from "./hooks.ts";
import { MCP_TOPIC, type McpElicitation, type McpEvent } from "./mcp_servers.ts";
import { MEMORY_TOPIC, type MemoryEvent } from "./memory.ts";
import { NOTES_TOPIC, type NotesEvent } from "./notes.ts";
import { NOTIFY_TOPIC, type NotifyTopicEvent } from "./notify.ts";
import { PLUGINS_TOPIC, type PluginsEvent } from "./plugins.ts";
import { PROJECTS_TOPIC, type ProjectsEvent } from "./projects.ts";
import { SETTINGS_TOPIC, type SettingsEvent } from "./providers.ts";
import { NOTICES_TOPIC, type SafetyNotice } from "./safety.ts";
import { SKILLS_TOPIC, type SkillsEvent } from "./skills.ts";
import { TERMINALS_TOPIC, type TerminalsEvent } from "./terminal.ts";

/** The task list changed; every client follows it. */
export const TASKS_TOPIC = "tasks";
/** The pending approvals changed; every client follows it. */
export const APPROVALS_TOPIC = "approvals";

/** Topic `tasks`: the task list changed. */
export type TasksEvent =
  | { kind: "upsert"; task: TaskSummary }
  | { kind: "delete"; id: string };

/** Topic `task:<id>`: a task's timeline changed. */
export type TaskEvent =
  /** Insert or replace a whole entry (by id; ordered by pos). */
  | { kind: "entry"; entry: Entry }
  /** Append streamed text to part `index` of an entry (creating the part if new). */
  | { kind: "delta"; entryId: string; index: number; type: "text" | "thinking"; text: string }
  | { kind: "run"; run: RunState | null }
  /** Live output of a running command (tool call `callId`), appended in order; `stream`
   * absent means stdout (older servers). */
  | { kind: "output"; callId: string; text: string; stream?: "out" | "err" }
  /**
   * The timeline was cut (edit & resend, retry): every entry with `pos > afterPos` is
   * gone; `total` is the task's new entry count.
   */
  | { kind: "truncate"; afterPos: number; total: number }
  /** The task's steering queue changed (the whole queue, in order). */
  | { kind: "queue"; queue: QueuedMessage[] }
  /** A sub-agent run of the task started, advanced a step or ended. */
  | { kind: "subagent"; run: SubagentRun }
  /** A background command of the task started, printed (at most once a second) or ended. */
  | { kind: "job"; job: JobInfo }
  /** The MCP servers' questions shown to this task's viewers (the whole list). */
  | { kind: "mcpQuestions"; list: McpElicitation[] }
  | { kind: "deleted" };

/** A task's own topic. */
export type TaskTopic = `task:${string}`;
export const taskTopic = (id: string): TaskTopic => `task:${id}`;

/** Every topic and the payload of its events. */
export interface TopicMap {
  [TASKS_TOPIC]: TasksEvent;
  [topic: TaskTopic]: TaskEvent;
  [APPROVALS_TOPIC]: ApprovalsEvent;
  [ASSISTANTS_TOPIC]: AssistantsEvent;
  [AUTOMATIONS_TOPIC]: AutomationsEvent;
  [HOOKS_TOPIC]: HooksEvent;
  [MCP_TOPIC]: McpEvent;
  [MEMORY_TOPIC]: MemoryEvent;
  [NOTES_TOPIC]: NotesEvent;
  [NOTICES_TOPIC]: SafetyNotice;
  [NOTIFY_TOPIC]: NotifyTopicEvent;
  [PLUGINS_TOPIC]: PluginsEvent;
  [PROJECTS_TOPIC]: ProjectsEvent;
  [SETTINGS_TOPIC]: SettingsEvent;
  [SKILLS_TOPIC]: SkillsEvent;
  [TERMINALS_TOPIC]: TerminalsEvent;
}

/** A topic of `M` (by default: of the server). */
export type Topic<M = TopicMap> = keyof M & string;
/** What an event of topic `T` carries. */
export type TopicPayload<T extends Topic> = TopicMap[T];

/** The `{t:"evt"}` envelope of one event, its `data` typed by its `topic`. */
export type TopicEvent<M = TopicMap> = {
  [K in Topic<M>]: { t: "evt"; topic: K; seq: number; data: M[K] };
}[Topic<M>];

/** Whether `e` is an event of a task's own topic (its `data` a {@link TaskEvent}). */
export const isTaskEvent = (e: TopicEvent): e is Extract<TopicEvent, { topic: TaskTopic }> =>
  e.topic.startsWith("task:");
