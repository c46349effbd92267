/**
 * The tools of a task's turns: the sandbox workers, the runner, the checkpoints, the image
 * worker and, per task, what the agent has read. `run` builds everything one call needs — roots and
 * hidden paths, the stale-read tracker, checkpoint hooks, the command policy read at the
 * call, and live command output published on the task's topic.
 */
import { writableGitPaths } from "../worktrees/worktree.ts";
import { LspManager } from "./lsp/manager.ts";
import type { Hidden } from "../../tools/exec/bwrap.ts";
import { join } from "../../lib/path.ts";
import { LIMITS, type TaskEvent, taskTopic } from "../../protocol/index.ts";
import type { SandboxLevelName } from "../../protocol/constants.ts";
import type { Repos } from "../../store/store.ts";
import type { ToolRegistry } from "../../tools/registry.ts";
import type { ToolResult } from "../../tools/types.ts";
import { SandboxPool } from "../../tools/sandbox/pool.ts";
import { fitResultImage, ImageFitter } from "../../tools/sandbox/image_fitter.ts";
import type { EventHub } from "../sessions/hub.ts";
import {
  type CheckedCall,
  FileTracker,
  type RunnerContext,
  ToolRunner,
} from "../../agent/index.ts";
import { Checkpointer } from "./checkpoints.ts";
import { attachmentMasks, commandPolicy } from "./command_policy.ts";
import type { SubagentControl } from "../../tools/agent.ts";
import { enabledSkillsCached, skillRoots } from "../skills/reminder.ts";
import type { MemoryAccess } from "../../tools/memory.ts";
import { type EditorAccess, editorTools } from "../../tools/editor.ts";

export interface TaskToolsDeps {
  repos: Repos;
  hub: EventHub;
  home: string;
  tools: ToolRegistry;
  /** The sandbox settings, read at each call so a change applies at once. */
  defaults(): { sandbox?: SandboxLevelName; network?: boolean };
  /** The editor driving a task that offers its file system and terminal, if one does. */
  editorOf?(taskId: string): EditorAccess | null;
}

/** Where a call runs: its task, workspace and turn (checkpoints are kept per turn). */
export interface CallPlace {
  taskId: string;
  workspace: string;
  turn: { id: string; pos: number };
  signal: AbortSignal;
  /** The call's id, for its live output; absent for calls run outside a run. */
  callId?: string;
  /** Attachments of the task (their workspace copies stay visible to commands). */
  attachments: string[];
  /** For the parent's `agent` tools only (a sub-agent's calls get none: no recursion). */
  subagents?: SubagentControl;
  /** For the parent's `memory` tool only (sub-agents get none). */
  memory?: MemoryAccess;
  /** Progress of a long rewind snapshot (null when it is done), for the run state. */
  onSnapshot?: (p: { files: number; bytes: number } | null) => void;
}

/** Live output streamed per command; the rest arrives with the result. */
const LIVE_OUTPUT_CAP = LIMITS.liveOutputChars;
/** Joins two queued pieces of one command's output (same call and stream). */
const concatText = (a: TaskEvent, b: TaskEvent): TaskEvent =>
  a.kind === "output" && b.kind === "output" ? { ...a, text: a.text + b.text } : b;

export class TaskTools {
  readonly checkpoints: Checkpointer;
  private pool = new SandboxPool();
  /** Shrinks images over the models' limit (tool results, attachments) off this thread. */
  readonly images = new ImageFitter();
  private runner: ToolRunner;
  private trackers = new Map<string, FileTracker>();
  /** Language servers for the diagnostics after file changes. */
  readonly lsp: LspManager;

  constructor(private d: TaskToolsDeps) {
    this.runner = new ToolRunner(d.tools, this.pool);
    this.checkpoints = new Checkpointer(d.repos.checkpoints, join(d.home, "checkpoints"));
    this.lsp = new LspManager(d.home, () => hiddenMounts(commandPolicy(d.repos, d.home).hidden));
  }

  /** Runs a checked, allowed call (sandbox, checkpoints …). */
  async run(call: CheckedCall, at: CallPlace): Promise<ToolResult> {
    const ctx = this.context(at);
    // The enabled skills' folders may be read (never written) wherever they are.
    const skills = await enabledSkillsCached({
      home: this.d.home,
      workspace: at.workspace,
      hidden: ctx.hidden,
    });
    // An editor that offers its files and terminal serves the file tools and commands
    // (same names, schemas and traits as the built-ins the call was checked against).
    const editor = this.d.editorOf?.(at.taskId) ?? null;
    const served = editor && editorTools(editor.caps).find((t) => t.name === call.name);
    const routed = served ? { ...call, tool: served } : call;
    if (editor) ctx.capabilities = { ...ctx.capabilities, editor };
    const result = await this.runner.run(routed, { ...ctx, readRoots: skillRoots(skills) });
    return fitResultImage(result, this.images);
  }

  /**
   * Starts the workspace's file-tool worker while the model answers (most turns call a
   * tool; the first call then finds it ready). The write worker serves reads as well; a
   * turn that cannot write (plan mode) gets the read-only one.
   */
  warm(workspace: string, readOnly = false): void {
    this.pool.warm(readOnly ? "read" : "write", [workspace]);
    // A big repository's rewind snapshot gets ready too (commands need a writing turn).
    if (!readOnly) this.checkpoints.warm(workspace);
  }

  /** Closes the sandbox workers (shutdown). */
  close(): void {
    this.pool.closeAll();
    this.images.close();
    this.checkpoints.close();
    void this.lsp.closeAll();
  }

  private context(at: CallPlace): RunnerContext {
    const { taskId, workspace, turn, signal, callId } = at;
    const cp = this.checkpoints;
    let streamed = 0;
    // Live command output for the exec card (the final result keeps head + tail), with
    // its stream. Returning false at the cap tells the command to stop decoding for us.
    const onOutput = (text: string, stream: "out" | "err"): boolean => {
      if (!callId || streamed >= LIVE_OUTPUT_CAP) return false;
      const piece = text.slice(0, LIVE_OUTPUT_CAP - streamed);
      streamed += piece.length;
      // Consecutive pieces of one stream merge; a switch starts a new event (order kept).
      this.d.hub.publish(
        taskTopic(taskId),
        { kind: "output", callId, stream, text: piece },
        `out:${callId}:${stream}`,
        concatText,
      );
      return streamed < LIVE_OUTPUT_CAP;
    };
    // What commands may see: read at each call, so a settings change applies at once.
    const policy = commandPolicy(this.d.repos, this.d.home);
    const masks = attachmentMasks(workspace, at.attachments);
    const defaults = this.d.defaults();
    // The task's own level, bound when it was made (the system setting for older rows).
    const settings = this.d.repos.tasks.get(taskId)?.settings;
    const sandbox = settings?.sandbox ?? defaults.sandbox;
    const worktree = settings?.worktree;
    return {
      workspace,
      roots: [workspace],
      hidden: policy.hidden,
      signal,
      tracker: this.trackerOf(taskId),
      // Shell commands: the task's sandbox level (read at each call). Background jobs
      // record their later file changes against this turn's snapshot.
      capabilities: {
        sandbox,
        network: defaults.network,
        // Spread into the context of main-process tools only (commands need it).
        get envPolicy() {
          return policy.envPolicy;
        },
        hidden: [...policy.hidden, ...masks.hidden],
        // A worktree's repository data: readable (its branches, config), and writable only
        // where a commit on the task's own branch writes.
        visible: worktree ? [...masks.visible, worktree.commonDir] : masks.visible,
        ...(worktree ? { gitRoots: writableGitPaths(worktree) } : {}),
        onOutput,
        jobOwner: { taskId, recapture: () => cp.afterShell(taskId, turn, workspace) },
        ...(at.subagents ? { subagents: at.subagents } : {}),
        ...(at.memory ? { memory: at.memory } : {}),
        ...(DIAGNOSTICS
          ? { diagnose: (paths: string[]) => this.lsp.diagnose(workspace, paths, true) }
          : {}),
      },
      beforeWrite: (abs) => cp.beforeWrite(taskId, turn, abs),
      afterWrite: (abs) => cp.afterWrite(taskId, turn, abs),
      beforeShell: async () => {
        let shown = false;
        const progress = (p: { files: number; bytes: number }) => {
          shown = true;
          at.onSnapshot?.(p);
        };
        try {
          await cp.beforeShell(taskId, turn, workspace, signal, progress);
        } finally {
          if (shown) at.onSnapshot?.(null);
        }
      },
      afterShell: () => cp.afterShell(taskId, turn, workspace),
      ...(DIAGNOSTICS
        ? { afterChange: (paths: string[]) => this.lsp.diagnose(workspace, paths) }
        : {}),
    };
  }

  /** Per task: what the agent has read (stale-read rule), kept while the process lives. */
  private trackerOf(taskId: string): FileTracker {
    let t = this.trackers.get(taskId);
    if (!t) {
      t = new FileTracker();
      this.trackers.set(taskId, t);
      if (this.trackers.size > 200) this.trackers.delete(this.trackers.keys().next().value!);
    }
    return t;
  }
}

/**
 * Diagnostics after file changes (`REINAGENT_DIAGNOSTICS=off` turns them off: the test
 * suite does, so its many file edits start no language server).
 */
const DIAGNOSTICS = Deno.env.get("REINAGENT_DIAGNOSTICS") !== "off";

/** The hidden paths as the sandbox masks them (folders and files; missing ones skipped). */
function hiddenMounts(paths: string[]): Hidden[] {
  const out: Hidden[] = [];
  for (const path of paths) {
    try {
      out.push({ path: Deno.realPathSync(path), dir: Deno.statSync(path).isDirectory });
    } catch { /* not there: nothing to hide */ }
  }
  return out;
}
