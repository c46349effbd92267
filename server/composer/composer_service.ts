/**
 * Server side of the composer: the steering queue (messages sent while a task runs
 * wait here and go out when the run completes naturally — not after a stop, an error
 * or max steps: then they stay until the user sends or removes them), the prompt
 * history per workspace and the per-task drafts. Everything is kept in the `kv`
 * table, so it survives restarts and is the same on every device.
 *
 * One instance per set of services, found with {@link composerOf}; it registers
 * itself on the run manager the first time it is asked for (services.ts asks at
 * start-up).
 */
import { sha256Hex } from "../../lib/sha256.ts";
import { join } from "../../lib/path.ts";
import type { Entry, Part, QueuedMessage, TaskSummary } from "../../protocol/index.ts";
import {
  type Attachment,
  COMPOSER_LIMITS,
  type Draft,
  taskTopic,
  WORKSPACE_ATTACHMENTS,
} from "../../protocol/index.ts";
import type { Repos } from "../../store/store.ts";
import type { EventHub } from "../sessions/hub.ts";
import type { TaskService } from "../sessions/task_service.ts";
import type { RunManager } from "../sessions/runs.ts";
import { OpError } from "../errors.ts";
import { resolveUploads, uploadDataPath, UploadError } from "./uploads_store.ts";
import { resolveMentions } from "./mentions.ts";
import type { McpResourceReader } from "./resource_mentions.ts";
import { expandPromptCommand, type McpPromptCommands } from "../commands/registry.ts";
import { commandPolicy } from "../agent/command_policy.ts";

/** Prompts longer than this are not remembered for ↑/↓ (they are pastes, not prompts). */
const PROMPT_KEEP_CHARS = 20_000;

export interface ComposerDeps {
  home: string;
  /** Prompts of connected MCP servers, used as slash commands. */
  mcpPrompts?: McpPromptCommands;
  /** Resources of MCP servers, attached with `@server:uri`. */
  mcpResources?: McpResourceReader;
  repos: Repos;
  hub: EventHub;
  tasks: TaskService;
  runs: RunManager;
  now?: () => number;
}

const queueKey = (taskId: string) => `queue.${taskId}`;
const draftKey = (taskId: string | null) => `draft.${taskId ?? "new"}`;
/** Prompt history key of a workspace (null = the default workspace). */
export const promptsKey = (workspace: string | null) =>
  `prompts.${sha256Hex(workspace ?? "\u0000default").slice(0, 32)}`;

export class ComposerService {
  private now: () => number;
  /** Tasks whose queued message is being sent right now (no double send). */
  private sendingQueued = new Set<string>();

  constructor(private d: ComposerDeps) {
    this.now = d.now ?? Date.now;
    d.runs.onFinish((taskId, natural) => {
      if (natural) this.sendNextQueued(taskId);
    });
  }

  // ---------- attachments ----------

  /** Metadata of uploads by id, in order; `invalid_args` for unknown ids. */
  async attachments(ids: readonly string[] | undefined): Promise<Attachment[]> {
    if (!ids?.length) return [];
    try {
      return await resolveUploads(this.d.home, ids);
    } catch (e) {
      if (e instanceof UploadError) throw new OpError("invalid_args", e.message);
      throw e;
    }
  }

  workspaceOf(projectPath: string | null): string {
    return projectPath ?? join(this.d.home, "DefaultProject");
  }

  /**
   * Everything a user message carries besides its text, decided when it is sent: the
   * attachment parts (see {@link userParts}), the files its `@` mentions name, and for
   * a prompt command (`/init`, a custom one) `meta.command` with what the model
   * receives instead of the typed text. Throws (nothing is sent) for a refused mention.
   */
  async prepare(
    projectPath: string | null,
    text: string,
    atts: Attachment[],
  ): Promise<{ extra: Part[]; meta: Record<string, unknown> }> {
    const workspace = this.workspaceOf(projectPath);
    const hidden = commandPolicy(this.d.repos, this.d.home).hidden;
    const mentions = await resolveMentions(text, workspace, hidden, {
      reader: this.d.mcpResources ?? null,
      home: this.d.home,
    });
    const command = await expandPromptCommand(text, {
      workspace,
      home: this.d.home,
      ...(this.d.mcpPrompts ? { mcpPrompts: this.d.mcpPrompts } : {}),
    });
    // A resource's image is attached like an uploaded one (copied into the workspace).
    const all = [...atts, ...mentions.images];
    const extra = (await this.userParts(projectPath, text, all)).slice(1);
    return { extra: [...extra, ...mentions.parts], meta: command ? { command } : {} };
  }

  /**
   * The parts of a user message: its text, then one image/file part per attachment.
   * Each attachment is copied into the workspace (`.reinagent/attachments/<id>/<name>`)
   * so tools such as read_file can open it; `data.path` is that copy. The folder holds a
   * `.gitignore` of its own: the copies never show in `git status` or beside "Stage all".
   */
  async userParts(
    projectPath: string | null,
    text: string,
    atts: Attachment[],
  ): Promise<Part[]> {
    const parts: Part[] = [{ type: "text", text }];
    if (!atts.length) return parts;
    const ws = this.workspaceOf(projectPath);
    if (projectPath !== null) {
      const st = await Deno.stat(ws).catch(() => null);
      if (!st?.isDirectory) {
        throw new OpError("invalid_args", `the project folder ${ws} does not exist`);
      }
    }
    for (const a of atts) {
      const dir = join(ws, WORKSPACE_ATTACHMENTS, a.id);
      const path = join(dir, a.name);
      try {
        await Deno.mkdir(dir, { recursive: true });
        await ignoredByGit(join(ws, WORKSPACE_ATTACHMENTS));
        await Deno.copyFile(uploadDataPath(this.d.home, a.id), path);
      } catch (e) {
        throw new OpError(
          "internal",
          `could not copy attachment ${a.name} into the workspace (${ws}): ${(e as Error).message}`,
        );
      }
      parts.push({
        type: a.kind,
        data: { id: a.id, name: a.name, mime: a.mime, size: a.size, path },
      });
    }
    return parts;
  }

  // ---------- sending and the steering queue ----------

  /**
   * Sends a user message to a task: appended and run at once when the task is idle,
   * queued when it runs. Remembers the prompt for ↑/↓.
   */
  async send(
    taskId: string,
    text: string,
    atts: Attachment[],
    startRun: (taskId: string) => void,
  ): Promise<{ entry: Entry | null; queued: QueuedMessage | null }> {
    const task = this.d.tasks.get(taskId);
    this.rememberPrompt(task.projectPath, text);
    this.clearDraft(taskId); // the draft became this message
    if (this.d.runs.isRunning(taskId)) {
      return { entry: null, queued: this.enqueue(taskId, text, atts) };
    }
    const { extra, meta } = await this.prepare(task.projectPath, text, atts);
    // The run may have started while the files were copied.
    if (this.d.runs.isRunning(taskId)) {
      return { entry: null, queued: this.enqueue(taskId, text, atts) };
    }
    const entry = this.d.tasks.send(taskId, text, extra, meta);
    startRun(taskId);
    return { entry, queued: null };
  }

  list(taskId: string): QueuedMessage[] {
    const v = this.d.repos.kv.get(queueKey(taskId));
    return Array.isArray(v) ? v as QueuedMessage[] : [];
  }

  private save(taskId: string, queue: QueuedMessage[]): QueuedMessage[] {
    if (queue.length) this.d.repos.kv.set(queueKey(taskId), queue);
    else this.d.repos.kv.delete(queueKey(taskId));
    this.d.hub.publish(taskTopic(taskId), { kind: "queue", queue }, `queue:${taskId}`);
    // The summary's `queued` count (read from this queue) changed: every list shows it.
    const task = this.d.repos.tasks.get(taskId);
    if (task) this.d.tasks.publish(task);
    return queue;
  }

  enqueue(taskId: string, text: string, attachments: Attachment[]): QueuedMessage {
    const queue = this.list(taskId);
    if (queue.length >= COMPOSER_LIMITS.queue) {
      throw new OpError(
        "too_large",
        `at most ${COMPOSER_LIMITS.queue} messages can wait; remove some or wait for the run`,
      );
    }
    const item: QueuedMessage = {
      id: "q" + crypto.randomUUID().replaceAll("-", "").slice(0, 20),
      text,
      attachments,
      createdAt: this.now(),
    };
    this.save(taskId, [...queue, item]);
    return item;
  }

  remove(taskId: string, itemId: string): QueuedMessage[] {
    this.d.tasks.get(taskId);
    const queue = this.list(taskId);
    const next = queue.filter((q) => q.id !== itemId);
    if (next.length === queue.length) {
      throw new OpError("not_found", `no queued message ${itemId} in task ${taskId}`);
    }
    return this.save(taskId, next);
  }

  /** Sends one queued message now (the task must be idle). */
  async sendQueued(
    taskId: string,
    itemId: string,
    startRun: (taskId: string) => void,
  ): Promise<QueuedMessage[]> {
    const task = this.d.tasks.get(taskId);
    if (this.d.runs.isRunning(taskId) || this.sendingQueued.has(taskId)) {
      throw new OpError("busy", "the task is running; the message is sent when the run completes");
    }
    const item = this.list(taskId).find((q) => q.id === itemId);
    if (!item) throw new OpError("not_found", `no queued message ${itemId} in task ${taskId}`);
    await this.deliverQueued(task, item, startRun);
    return this.list(taskId);
  }

  /** After a natural finish: the first queued message goes out (its run sends the next). */
  private sendNextQueued(taskId: string): void {
    const item = this.list(taskId)[0];
    if (!item || this.sendingQueued.has(taskId)) return;
    const task = this.d.repos.tasks.get(taskId);
    if (!task) return;
    this.deliverQueued(task, item, (id) => {
      this.d.runs.start(id).catch((e) => console.error(`run ${id}:`, e));
    }).catch((e) =>
      // It stays queued and visible; the user can send or remove it.
      console.error(`could not send the queued message of task ${taskId}:`, e)
    );
  }

  private async deliverQueued(
    task: TaskSummary,
    item: QueuedMessage,
    startRun: (taskId: string) => void,
  ): Promise<void> {
    this.sendingQueued.add(task.id);
    try {
      const { extra, meta } = await this.prepare(task.projectPath, item.text, item.attachments);
      if (this.d.runs.isRunning(task.id)) return; // someone else started a run: keep it queued
      const left = this.list(task.id).filter((q) => q.id !== item.id);
      if (left.length === this.list(task.id).length) return; // removed meanwhile
      this.save(task.id, left);
      this.d.tasks.send(task.id, item.text, extra, meta);
      startRun(task.id);
    } finally {
      this.sendingQueued.delete(task.id);
    }
  }

  // ---------- prompt history ----------

  /** Prompts sent in a workspace, oldest first. */
  prompts(workspace: string | null): string[] {
    const v = this.d.repos.kv.get(promptsKey(workspace));
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  }

  /** Adds a prompt (trimmed; not twice in a row; at most 30 kept). */
  rememberPrompt(workspace: string | null, text: string): void {
    const p = text.trim();
    if (!p || p.length > PROMPT_KEEP_CHARS) return;
    const list = this.prompts(workspace);
    if (list.at(-1) === p) return;
    list.push(p);
    this.d.repos.kv.set(promptsKey(workspace), list.slice(-COMPOSER_LIMITS.promptHistory));
  }

  // ---------- drafts ----------

  draft(taskId: string | null): Draft | null {
    const v = this.d.repos.kv.get(draftKey(taskId)) as Draft | undefined;
    return v && typeof v.text === "string" ? v : null;
  }

  async setDraft(taskId: string | null, text: string, ids: string[]): Promise<Draft | null> {
    if (taskId !== null) this.d.tasks.get(taskId);
    const attachments = await this.attachments(ids);
    if (!text && !attachments.length) {
      this.d.repos.kv.delete(draftKey(taskId));
      return null;
    }
    const draft: Draft = { text, attachments, updatedAt: this.now() };
    this.d.repos.kv.set(draftKey(taskId), draft);
    return draft;
  }

  /** The draft was sent (`null` = the new-task view's draft). */
  clearDraft(taskId: string | null): void {
    this.d.repos.kv.delete(draftKey(taskId));
  }

  /** Drops what belongs to a deleted task. */
  forget(taskId: string): void {
    this.d.repos.kv.delete(queueKey(taskId));
    this.d.repos.kv.delete(draftKey(taskId));
  }
}

const instances = new WeakMap<RunManager, ComposerService>();

/** The composer service of a set of services (null when the store is unavailable). */
export function composerOf(
  deps: {
    home: string;
    store: { repos: Repos | null };
    hub: EventHub;
    tasks: TaskService | null;
    runs: RunManager | null;
    mcp?: (McpPromptCommands & { resources?: McpResourceReader }) | null;
  },
): ComposerService | null {
  if (!deps.runs || !deps.tasks || !deps.store.repos) return null;
  let c = instances.get(deps.runs);
  if (!c) {
    c = new ComposerService({
      home: deps.home,
      repos: deps.store.repos,
      hub: deps.hub,
      tasks: deps.tasks,
      runs: deps.runs,
      ...(deps.mcp ? { mcpPrompts: deps.mcp } : {}),
      ...(deps.mcp?.resources ? { mcpResources: deps.mcp.resources } : {}),
    });
    instances.set(deps.runs, c);
  }
  return c;
}

/**
 * Makes git ignore everything in `dir` (itself included) with a `.gitignore` there:
 * nothing of the user's repository (its own ignore files, `.git/info/exclude`) changes.
 */
async function ignoredByGit(dir: string): Promise<void> {
  try {
    await Deno.writeTextFile(join(dir, ".gitignore"), "# Attachments of ReinAgent messages\n*\n", {
      createNew: true,
    });
  } catch (e) {
    if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
  }
}
