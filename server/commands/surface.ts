/**
 * Slash commands where messages arrive: a message sent to a task (`task.send`) and
 * the first message of a new task (`tasks.create`; the CLI's `reinagent run` and any
 * other client use the same ops). Local commands act here; prompt commands and
 * mentions are expanded when the message is prepared (ComposerService.prepare).
 */
import type { ApprovalMode, ClientInfo, TaskGoal } from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import type { TaskService } from "../sessions/task_service.ts";
import type { RunManager } from "../sessions/runs.ts";
import type { ComposerService } from "../composer/composer_service.ts";
import { type CommandHost, type LocalResult, runLocalCommand } from "./local.ts";
import { compactTask } from "./compact.ts";
import type { TaskCost } from "../usage/task_cost.ts";
import type { RewindPlan } from "../../protocol/index.ts";
import { type RewindPreview, SHELL_FILE_CAP } from "../agent/checkpoints.ts";
import { displayPath } from "../../tools/paths.ts";

export interface SurfaceDeps {
  home: string;
  tasks: TaskService;
  runs: RunManager;
  composer: ComposerService;
  /** Re-checks waiting approvals after a mode change. */
  reevaluate?(taskId: string): void;
  /** A task's cost so far (`/cost`). */
  cost(taskId: string): TaskCost;
  /** The enabled models as `provider/model` (`/model`). */
  models(): string[];
  now?: () => number;
}

/** A rewind preview as the rewind op reports it: workspace-relative paths, its note. */
function planOf(p: RewindPreview, workspace: string): RewindPlan {
  const rel = (x: string) => displayPath(x, workspace);
  const mb = SHELL_FILE_CAP / 1048576;
  return {
    restore: p.restore.map(rel),
    remove: p.remove.map(rel),
    conflicts: p.conflicts.map((c) => ({ ...c, path: rel(c.path) })),
    unrewindable: p.unrewindable.map((c) => ({ ...c, path: rel(c.path) })),
    note: "Files changed by shell commands are covered by a snapshot of the workspace taken " +
      `before the turn's first command (files up to ${mb} MB, skipping .git and node_modules).`,
    noteCode: "shell_snapshot",
    noteParams: { mb },
  };
}

/** A local command sent to task `taskId`; null when `text` is not one. */
export async function taskCommand(
  d: SurfaceDeps,
  taskId: string,
  text: string,
  opts: { attachments: boolean; by: ClientInfo },
): Promise<LocalResult | null> {
  const task = d.tasks.get(taskId);
  const host: CommandHost = {
    task,
    scope: { workspace: d.composer.workspaceOf(task.projectPath), home: d.home },
    now: d.now ?? Date.now,
    setPlanMode: () => {
      d.tasks.setOptions(taskId, { approval: "plan" });
      d.reevaluate?.(taskId); // the gate reads the mode live: what waits is decided again
    },
    setGoal: (goal) => void d.tasks.setGoal(taskId, goal),
    clear: () => {
      if (d.runs.isRunning(taskId)) {
        throw new OpError("busy", "the task is running; stop it before clearing the conversation");
      }
      d.tasks.clearMarker(taskId, { by: opts.by });
    },
    compact: (focus) => compactTask(d.runs, taskId, focus),
    cost: () => d.cost(taskId),
    models: () => d.models(),
    setModel: (model) => void d.tasks.setOptions(taskId, { model }),
    undo: async (apply) => {
      if (d.runs.isRunning(taskId)) {
        throw new OpError("busy", "the task is running; stop it before undoing a turn");
      }
      const last = d.tasks.snapshot(taskId, 200).entries.filter((e) => e.role === "user").at(-1);
      if (!last) return null;
      const ws = d.composer.workspaceOf(task.projectPath);
      const plan = planOf(await d.runs.rewind(taskId, last.id, false), ws);
      if (!apply || plan.conflicts.length || plan.unrewindable.length) return plan;
      const done = planOf(await d.runs.rewind(taskId, last.id, true), ws);
      d.runs.records.rewound(taskId, last.id, done, opts.by);
      return done;
    },
    recent: () =>
      d.tasks.list().filter((t) => t.projectPath === task.projectPath && t.id !== taskId)
        .sort((a, b) => b.updatedAt - a.updatedAt),
  };
  const r = await runLocalCommand(text, host, opts);
  if (r) {
    d.composer.rememberPrompt(task.projectPath, text);
    d.composer.clearDraft(taskId);
  }
  return r;
}

/** What a new task's first message asked for, when it is a local command. */
export interface NewTaskCommand extends LocalResult {
  approval?: ApprovalMode;
  goal?: TaskGoal;
  model?: { providerId: string; modelId: string };
}

/**
 * A local command as the first message of a new task: `/plan [task]` creates it in
 * plan mode (with the task as its message), `/goal <text>` with that goal and no
 * message. Commands with nothing to do in a new task are refused (nothing is created).
 */
export async function newTaskCommand(
  d: SurfaceDeps,
  text: string,
  projectPath: string | null,
  opts: { attachments: boolean },
): Promise<NewTaskCommand | null> {
  const got: {
    approval?: ApprovalMode;
    goal?: TaskGoal;
    model?: { providerId: string; modelId: string };
  } = {};
  const host: CommandHost = {
    task: null,
    scope: { workspace: d.composer.workspaceOf(projectPath), home: d.home },
    now: d.now ?? Date.now,
    setPlanMode: () => void (got.approval = "plan"),
    setGoal: (goal) => void (goal ? got.goal = goal : delete got.goal),
    clear: () => {
      throw new OpError("invalid_args", "a new task has nothing to clear");
    },
    compact: () => {
      throw new OpError("invalid_args", "a new task has nothing to compact");
    },
    cost: () => {
      throw new OpError("invalid_args", "a new task has cost nothing yet");
    },
    models: () => d.models(),
    setModel: (model) => void (got.model = model),
    undo: () => {
      throw new OpError("invalid_args", "a new task has nothing to undo");
    },
    recent: () =>
      d.tasks.list().filter((t) => t.projectPath === projectPath).sort((a, b) =>
        b.updatedAt - a.updatedAt
      ),
  };
  const r = await runLocalCommand(text, host, opts);
  if (!r) return null;
  if (r.send === undefined && !got.approval && !got.goal && !got.model) {
    throw new OpError(
      "invalid_args",
      `/${r.reply.name} has nothing to do in a new task (${
        r.reply.code === "help" ? "commands.list lists the commands" : r.reply.text
      })`,
    );
  }
  return { ...r, ...got };
}
