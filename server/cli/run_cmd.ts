/**
 * `reinagent run "<prompt>"`: one agent turn to completion, headless (like `claude -p`,
 * `codex exec`, `opencode run`). Performed by the running instance for this home when
 * there is one (so it shows live in every window), otherwise in this process.
 * Streams the answer to stdout (`--json`: one JSON event per line). Exit codes:
 * 0 done, 1 failed, 2 bad input, 3 max steps reached, 130 stopped.
 */
import {
  addMoney,
  type CommandReply,
  type Cost,
  type Entry,
  type EvtMsg,
  formatMoney,
  MCP_TOPIC,
  type MoneySum,
  type OpResults,
  parseSlash,
  type PendingApproval,
  type RunEnd,
  TASK_STATE_WORDS,
  TASKS_TOPIC,
  type TaskSummary,
  taskTopic,
} from "../../protocol/index.ts";
import type { OpClient } from "./op_client.ts";
import { openHomeClient } from "./home_client.ts";
import { mark } from "../../lib/trace.ts";
import type { RunArgs } from "./run_args.ts";
export { parseRunArgs } from "./run_args.ts";

interface Out {
  text(s: string): void;
  note(s: string): void;
  json(o: unknown): void;
}

/**
 * What to do when the run waits for an approval: a running instance's windows can
 * answer it (say so); a run in this process has nobody to ask, so it is stopped with
 * a note instead of hanging (a new install's mode `edit` asks before commands).
 */
async function onWaiting(
  client: OpClient,
  taskId: string,
  remote: boolean,
  out: Out,
): Promise<void> {
  const { approvals } = await client.request("approvals.list").catch(() => ({ approvals: [] }));
  const mine = (approvals as PendingApproval[]).filter((a) => a.taskId === taskId && a.live);
  const what = mine.map((a) => a.summary).join("; ") || "a tool call";
  if (remote) {
    out.note(`waiting for approval: ${what} — answer it in the open ReinAgent window`);
    return;
  }
  out.note(
    `reinagent: ${what} needs approval, and nobody can answer it in a headless run: stopped.\n` +
      "  Re-run with --approval full to let commands run without asking, or start ReinAgent " +
      "(reinagent serve) and run again to answer it there.",
  );
  await client.request("task.stop", { id: taskId }).catch(() => {});
}

/**
 * Follows a task's events and prints new output; resolves when the run ends. Listens
 * at once and holds events until the task id is known (it comes with tasks.create).
 */
function follow(
  client: OpClient,
  taskIdKnown: Promise<string>,
  args: RunArgs,
  out: Out,
  remote: boolean,
): Promise<{ entries: Entry[]; stoppedWaiting: boolean }> {
  let taskId: string | null = null;
  const held: EvtMsg[] = [];
  const entries = new Map<string, Entry>();
  const printed = new Map<string, number>(); // `${entryId}:${index}` → chars printed
  let sawRun = false;
  const emit = (e: Entry) => {
    e.parts.forEach((p, i) => {
      if (e.role !== "assistant" || (p.type !== "text" && p.type !== "thinking")) return;
      const key = `${e.id}:${i}`;
      const done = printed.get(key) ?? 0;
      const fresh = (p.text ?? "").slice(done);
      if (!fresh) return;
      printed.set(key, done + fresh.length);
      if (args.json) out.json({ type: p.type, delta: fresh });
      else if (p.type === "text") out.text(fresh);
    });
  };
  const announce = (e: Entry, prev: Entry | undefined) => {
    if (e.role === "assistant" && e.status !== "streaming") {
      for (const p of e.parts) {
        if (p.type !== "tool_call" || !p.data) continue;
        if (prev?.status !== "streaming" && prev !== undefined) continue;
        if (args.json) {
          out.json({ type: "tool_call", id: p.data.id, name: p.data.name, args: p.data.args });
        } else out.note(`→ ${p.data.name} ${JSON.stringify(p.data.args)}`);
      }
      if (!args.json && e.parts.some((p) => p.type === "text")) out.text("\n");
    }
    if (e.role === "tool" && !prev) {
      const r = e.parts[0];
      if (args.json) {
        out.json({
          type: "tool_result",
          id: r.data?.toolCallId,
          name: r.data?.name,
          isError: r.data?.isError,
          content: r.text,
        });
      } else {out.note(
          `  ${r.data?.isError ? "✗" : "✓"} ${r.data?.name}: ${
            (r.text ?? "").split("\n")[0].slice(0, 120)
          }`,
        );}
    }
    if (e.role === "error" && !prev) {
      const info = e.meta.error as { category?: string; hint?: string } | undefined;
      if (args.json) out.json({ type: "error", message: e.parts[0]?.text, ...info });
      else {out.note(
          `error (${info?.category ?? "unknown"}): ${e.parts[0]?.text}${
            info?.hint ? `\n  ${info.hint}` : ""
          }`,
        );}
    }
  };
  return new Promise((resolveDone) => {
    let waited = false;
    let stoppedWaiting = false;
    const handle = (m: EvtMsg) => {
      if (m.topic === MCP_TOPIC) {
        // A server that failed to start or list its tools: said, never silently dropped.
        const d = m.data;
        if (d.kind !== "failure") return;
        if (args.json) {
          out.json({ type: "mcp_failure", server: d.id, phase: d.phase, message: d.message });
        } else out.note(`MCP server ${d.id} failed (${d.phase}): ${d.message}`);
        return;
      }
      if (m.topic === TASKS_TOPIC) {
        const t = m.data;
        const waiting = t.kind === "upsert" && t.task.id === taskId && t.task.status === "waiting";
        if (waiting && !waited) {
          stoppedWaiting ||= !remote; // (before the stop's events can arrive)
          onWaiting(client, taskId!, remote, out);
        }
        waited = waiting;
        return;
      }
      if (m.topic !== taskTopic(taskId!)) return;
      const d = m.data;
      if (d.kind === "entry") {
        const prev = entries.get(d.entry.id);
        entries.set(d.entry.id, d.entry);
        emit(d.entry);
        announce(d.entry, prev);
      } else if (d.kind === "delta") {
        const e = entries.get(d.entryId);
        if (!e) return;
        const part = e.parts[d.index] ?? (e.parts[d.index] = { type: d.type, text: "" });
        part.text = (part.text ?? "") + d.text;
        emit(e);
      } else if (d.kind === "run") {
        if (d.run) sawRun = true;
        else if (sawRun) {
          resolveDone({
            entries: [...entries.values()].sort((a, b) => a.pos - b.pos),
            stoppedWaiting,
          });
        }
      }
    };
    client.onEvent((m) => taskId === null ? held.push(m) : handle(m));
    taskIdKnown.then((id) => {
      taskId = id;
      held.splice(0).forEach(handle);
    });
  });
}

/** Exit code and `--json` outcome for each way a run ends. */
export const RUN_EXIT: Readonly<Record<RunEnd, { code: number; kind: string }>> = {
  done: { code: 0, kind: "done" },
  failed: { code: 1, kind: "error" },
  interrupted: { code: 1, kind: "interrupted" },
  maxSteps: { code: 3, kind: "maxSteps" },
  stopped: { code: 130, kind: "stopped" },
};

/**
 * A run that ended without a complete answer: the model refused, the provider's filter
 * cut it, or the output limit did (Continue resumes it). Exit codes after maxSteps' 3.
 */
export const CUT_EXIT: Readonly<Record<string, { code: number; kind: string; note: string }>> = {
  refusal: { code: 4, kind: "refused", note: "the model refused to answer" },
  content_filter: {
    code: 5,
    kind: "filtered",
    note: "the provider's content filter blocked the answer",
  },
  max_tokens: {
    code: 6,
    kind: "truncated",
    note: "the answer hit the output token limit (continue with --task)",
  },
};

/** Why the turn's last answer was cut short or declined (null: it was not). */
export function cutStopOf(entries: Entry[]): string | null {
  const last = entries.filter((e) => e.role === "assistant").at(-1);
  const reason = last?.meta.stopReason;
  return typeof reason === "string" && reason in CUT_EXIT ? reason : null;
}

/** How the finished turn ended, from its entries (when the task's record is unknown). */
export function outcomeOf(entries: Entry[]): RunEnd {
  const last = entries.at(-1);
  const lastAssistant = entries.filter((e) => e.role === "assistant").at(-1);
  if (last?.role === "error") return "failed";
  if (lastAssistant?.status === "stopped") return "stopped";
  if (lastAssistant?.meta.truncatedBy === "maxSteps") return "maxSteps";
  return "done";
}

/** `run -`: the prompt is all of stdin. */
async function promptFromStdin(): Promise<string> {
  return await new Response(Deno.stdin.readable).text();
}

export async function runCommand(args: RunArgs, home: string, out: Out): Promise<number> {
  if (args.prompt === "-") {
    const prompt = (await promptFromStdin()).trim();
    if (!prompt) {
      out.note("reinagent: run - read no prompt from stdin");
      return 2;
    }
    args = { ...args, prompt };
  }
  if (args.format === "json") return await runAsJson(args, home, out);
  return await runStreaming(args, home, out);
}

/** `--output-format json`: the run without streaming, then one result object on stdout. */
async function runAsJson(args: RunArgs, home: string, out: Out): Promise<number> {
  let done: Record<string, unknown> | null = null;
  let answer = "";
  const quiet: Out = {
    text: () => {},
    note: out.note,
    json: (o) => {
      const e = o as Record<string, unknown>;
      if (e.type === "text" && typeof e.delta === "string") answer += e.delta;
      if (e.type === "tool_call") answer = ""; // the answer is the text after the last call
      if (e.type === "done" || e.type === "command") done = e;
    },
  };
  const code = await runStreaming({ ...args, json: true }, home, quiet);
  const last = done as Record<string, unknown> | null;
  out.json({
    ...(last ?? { outcome: code === 0 ? "done" : "error" }),
    type: "result",
    ...(last?.type === "command" ? { outcome: "done" } : {}),
    result: last?.type === "command" ? last.text : answer,
    exitCode: code,
  });
  return code;
}

async function runStreaming(args: RunArgs, home: string, out: Out): Promise<number> {
  if (args.project) {
    let st: Deno.FileInfo | null = null;
    try {
      st = Deno.statSync(args.project);
    } catch { /* reported below */ }
    if (!st?.isDirectory) {
      out.note(`reinagent: --project ${args.project} is not a folder`);
      return 2;
    }
  }
  mark("run: command");
  const opened = await openHomeClient(home, "run");
  mark("run: home opened");
  if ("error" in opened) {
    out.note(`reinagent: ${opened.error}`);
    return 1;
  }
  const { client, remote } = opened;
  try {
    if (args.model) {
      const { providers } = await client.request("providers.list");
      const p = (providers as {
        id: string;
        enabled: boolean;
        models: { id: string; enabled: boolean }[];
      }[])
        .find((x) => x.id === args.model!.providerId);
      const m = p?.models.find((x) => x.id === args.model!.modelId);
      if (!p || !m || !p.enabled || !m.enabled) {
        const available = (providers as {
          id: string;
          enabled: boolean;
          models: { id: string; enabled: boolean }[];
        }[])
          .filter((x) => x.enabled).flatMap((x) =>
            x.models.filter((y) => y.enabled).map((y) => `${x.id}/${y.id}`)
          );
        out.note(
          `reinagent: model ${args.model.providerId}/${args.model.modelId} is not available` +
            (p && !p.enabled
              ? " (provider disabled)"
              : m && !m.enabled
              ? " (model disabled)"
              : "") +
            `\n  available: ${available.join(", ") || "(none)"}`,
        );
        return 2;
      }
    }
    const options = {
      ...(args.model ? { model: args.model } : {}),
      ...(args.effort ? { effort: args.effort } : {}),
      ...(args.approval ? { approval: args.approval } : {}),
      ...(args.maxTurns ? { maxSteps: args.maxTurns } : {}),
      ...(args.appendSystemPrompt ? { appendSystemPrompt: args.appendSystemPrompt } : {}),
      ...(args.rules ? { rules: args.rules } : {}),
    };
    if (args.continue) {
      const { tasks } = await client.request("tasks.list", {}) as { tasks: TaskSummary[] };
      const mine = tasks.filter((t) => t.projectPath === (args.project ?? null))
        .sort((a, b) => b.updatedAt - a.updatedAt)[0];
      if (!mine) {
        out.note(
          `reinagent: --continue found no task in ${args.project ?? "the default project"}`,
        );
        return 2;
      }
      args = { ...args, task: mine.id };
    }
    // `/help` needs no task: the server lists the commands of the folder.
    if (!args.task && parseSlash(args.prompt)?.name === "help") {
      const list = await client.request("commands.list", { projectPath: args.project ?? null });
      printCommands(list as OpResults["commands.list"], args, out);
      return 0;
    }
    let taskId: string;
    let command: CommandReply | undefined;
    let resolveId!: (id: string) => void;
    const done = follow(client, new Promise<string>((r) => (resolveId = r)), args, out, remote);
    if (args.task) {
      taskId = args.task;
      resolveId(taskId);
      await client.request("task.subscribe", { id: taskId });
      if (Object.keys(options).length) {
        await client.request("task.setOptions", { id: taskId, ...options });
      }
      command = (await client.request("task.send", { id: taskId, text: args.prompt })).command;
    } else {
      // tasks.create subscribes its caller, so no event of the run is missed.
      const created = await client.request("tasks.create", {
        message: args.prompt,
        ...(args.project || args.worktree ? { projectPath: args.project ?? Deno.cwd() } : {}),
        ...(Object.keys(options).length ? { options } : {}),
        ...(args.worktree ? { worktree: {} } : {}),
      });
      taskId = created.task.id;
      const wt = created.task.settings.worktree;
      if (wt && !args.json) {
        out.note(`worktree ${wt.path} on branch ${wt.branch} (from ${wt.base})`);
        if (created.worktreeNotes?.dirtyBase) {
          out.note(`  note: ${wt.repo} has uncommitted changes; the task starts without them`);
        }
      }
      mark("run: task created");
      command = created.command;
      resolveId(taskId);
    }
    if (!args.json) {
      out.note(`task ${taskId}${remote ? " (running in the open ReinAgent instance)" : ""}`);
    }
    // A slash command answered without the model (e.g. /goal): print its answer, done.
    if (command && !command.ran) {
      if (args.json) out.json({ type: "command", taskId, ...command });
      else out.text(`${command.text}\n`);
      return 0;
    }
    const { entries, stoppedWaiting } = await done;
    mark("run: run ended");
    // The server recorded how the run ended (the same word every window shows); a run
    // stopped here because it waited for an approval no one can give is "stopped".
    const { tasks } = await client.request("tasks.list", { ids: [taskId] }) as {
      tasks: TaskSummary[];
    };
    const end: RunEnd = stoppedWaiting
      ? "stopped"
      : tasks.find((t) => t.id === taskId)?.lastRun ?? outcomeOf(entries);
    const cut = end === "done" ? cutStopOf(entries) : null;
    const outcome = cut ? CUT_EXIT[cut] : RUN_EXIT[end];
    const usage = totalUsage(entries);
    const cost = runCost(entries.filter((e) => e.role === "assistant"));
    if (args.json) {
      out.json({
        type: "done",
        outcome: outcome.kind,
        taskId,
        usage,
        cost,
        ...(cut ? { stopReason: cut } : {}),
      });
    } else if (cut) out.note(`run ended: ${CUT_EXIT[cut].note}`);
    else if (end !== "done") out.note(`run ended: ${TASK_STATE_WORDS[end]}`);
    return outcome.code;
  } catch (e) {
    const code = (e as { code?: string }).code;
    out.note(`reinagent: ${(e as Error).message}`);
    return code === "invalid_args" || code === "not_found" ? 2 : 1;
  } finally {
    await client.close();
  }
}

/** The run's tokens summed over its answers, each kind apart (so they can be priced). */
function totalUsage(entries: Entry[]): Record<string, number> {
  const sum = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
  for (const e of entries) {
    if (e.role !== "assistant") continue;
    const u = e.meta.usage as Partial<typeof sum> | undefined;
    for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += u?.[k] ?? 0;
  }
  return sum;
}

/**
 * What this run's replies cost at their models' prices (sub-agents not included):
 * per currency in nano-units with the text a person reads, and the replies whose
 * price is unknown (they are not counted as free).
 */
export function runCost(replies: Entry[]): {
  total: (MoneySum & { text: string })[];
  replies: number;
  unpriced: number;
} {
  const sums: MoneySum[] = [];
  let unpriced = 0;
  for (const e of replies) {
    const c = e.meta.cost as Cost | undefined;
    if (c && typeof c.total === "number" && typeof c.currency === "string") {
      addMoney(sums, { currency: c.currency, nanos: c.total });
    } else unpriced++;
  }
  return {
    total: sums.map((s) => ({ ...s, text: formatMoney(s.nanos, s.currency, "en-US") })),
    replies: replies.length,
    unpriced,
  };
}

/** `reinagent run "/help"`: the commands of the folder and the files that could not be used. */
function printCommands(list: OpResults["commands.list"], args: RunArgs, out: Out): void {
  if (args.json) {
    out.json({ type: "commands", ...list });
    return;
  }
  const lines = list.commands.map((c) =>
    `  /${c.name}${c.argHint ? ` ${c.argHint}` : ""} — ${c.description}`
  );
  out.text(`Commands:\n${lines.join("\n")}\n`);
  out.text("Mention a file or folder with @path (e.g. @src/main.ts) to attach it as context.\n");
  for (const p of list.problems) out.note(`not used: ${p.path}: ${p.message}`);
}
