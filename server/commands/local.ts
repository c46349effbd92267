/**
 * Local slash commands: they act on the task without asking the model. Each handler
 * works through a {@link CommandHost}, so the same code serves a message sent to a
 * task (`task.send`) and the first message of a new one (`tasks.create`, where the
 * host collects the settings the task is created with).
 */
import type {
  CommandReply,
  Entry,
  ReplyCode,
  RewindPlan,
  TaskGoal,
  TaskSummary,
} from "../../protocol/index.ts";
import { compactMetaOf } from "../../protocol/index.ts";
import { parseGoalArgs, parseSlash } from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import { type CommandScope, listCommands } from "./registry.ts";
import { costReport, moneyText, type TaskCost } from "../usage/task_cost.ts";

export interface CommandHost {
  /** The task, or null while it is being created. */
  task: TaskSummary | null;
  scope: CommandScope;
  now(): number;
  setPlanMode(): void;
  setGoal(goal: TaskGoal | null): void;
  /** Marks the conversation as cleared for the model (throws `busy` while it runs). */
  clear(): void;
  /** Compacts the conversation now; the compact entry, or null when there is nothing to. */
  compact(focus: string): Promise<Entry | null>;
  /** The task's cost so far (its replies and its sub-agents'). */
  cost(): TaskCost;
  /** The enabled models (`provider/model`), and switching the task to one. */
  models(): string[];
  setModel(ref: { providerId: string; modelId: string }): void;
  /** What rewinding the last turn's files would do, or does with `apply`; null: no turn. */
  undo(apply: boolean): Promise<RewindPlan | null>;
  /** The project's other tasks, latest first. */
  recent(): TaskSummary[];
}

export interface LocalResult {
  reply: CommandReply;
  /** Text to send to the model afterwards (`/plan <task>`). */
  send?: string;
}

type Handler = (args: string, host: CommandHost) => LocalResult | Promise<LocalResult>;

const reply = (
  name: string,
  code: ReplyCode,
  text: string,
  params?: Record<string, string | number>,
): CommandReply => ({ name, ran: false, code, text, ...(params ? { params } : {}) });

function goal(args: string, host: CommandHost): LocalResult {
  const action = parseGoalArgs(args);
  const current = host.task?.settings.goal ?? null;
  const none = () => ({
    reply: reply("goal", "goalNone", "No goal is set. /goal <text> sets one."),
  });
  switch (action.kind) {
    case "show":
      if (!current) return none();
      return {
        reply: current.paused
          ? reply("goal", "goalShowPaused", `Goal (paused): ${current.text}`, {
            text: current.text,
          })
          : reply("goal", "goalShow", `Goal: ${current.text}`, { text: current.text }),
      };
    case "set":
      host.setGoal({ text: action.text, paused: false, setAt: host.now() });
      return {
        reply: reply(
          "goal",
          "goalSet",
          `Goal set: ${action.text}\nIt is part of every turn until you pause or clear it.`,
          { text: action.text },
        ),
      };
    case "pause":
    case "resume": {
      if (!current) return none();
      host.setGoal({ ...current, paused: action.kind === "pause" });
      return action.kind === "pause"
        ? { reply: reply("goal", "goalPaused", "Goal paused: the agent no longer pursues it.") }
        : { reply: reply("goal", "goalResumed", `Goal resumed: ${current.text}`) };
    }
    case "clear":
      if (!current) return none();
      host.setGoal(null);
      return { reply: reply("goal", "goalCleared", "Goal cleared.") };
  }
}

async function help(_args: string, host: CommandHost): Promise<LocalResult> {
  const { commands, problems } = await listCommands(host.scope);
  const lines = commands.map((c) =>
    `  /${c.name}${c.argHint ? ` ${c.argHint}` : ""} — ${c.description}`
  );
  const text = [
    "Commands:",
    ...lines,
    "Mention a file or folder with @path (e.g. @src/main.ts) to attach it as context.",
    ...(problems.length
      ? ["Command files not used:", ...problems.map((p) => `  ${p.path}: ${p.message}`)]
      : []),
  ].join("\n");
  return { reply: reply("help", "help", text, { count: commands.length }) };
}

function cost(_args: string, host: CommandHost): LocalResult {
  if (!host.task) throw new OpError("invalid_args", "a new task has cost nothing yet");
  const c = host.cost();
  const text = costReport(c);
  if (c.replies === 0) return { reply: reply("cost", "costNone", text) };
  if (c.cost.length === 0) {
    return { reply: reply("cost", "costUnknown", text, { replies: c.replies }) };
  }
  const part = (k: "input" | "output" | "cacheRead" | "cacheWrite") =>
    moneyText(c.cost.map((x) => ({ currency: x.currency, nanos: x[k] })));
  return {
    reply: reply("cost", "cost", text, {
      total: moneyText(c.cost.map((x) => ({ currency: x.currency, nanos: x.total }))),
      input: part("input"),
      output: part("output"),
      cacheRead: part("cacheRead"),
      cacheWrite: part("cacheWrite"),
      replies: c.replies,
      unpriced: c.unpriced,
      models: c.models.length,
    }),
  };
}

function model(args: string, host: CommandHost): LocalResult {
  const current = host.task?.settings.model;
  const name = current ? `${current.providerId}/${current.modelId}` : "the default model";
  const list = host.models();
  const want = args.trim();
  if (!want) {
    return {
      reply: reply(
        "model",
        "modelShow",
        `Model: ${name}\nAvailable: ${
          list.join(", ") || "(none)"
        }\n/model provider/model switches.`,
        { model: name, available: list.join(", ") },
      ),
    };
  }
  const slash = want.indexOf("/");
  if (slash <= 0 || !list.includes(want)) {
    return {
      reply: reply(
        "model",
        "modelUnknown",
        `No enabled model ${want}. Available: ${list.join(", ") || "(none)"}`,
        { model: want, available: list.join(", ") },
      ),
    };
  }
  host.setModel({ providerId: want.slice(0, slash), modelId: want.slice(slash + 1) });
  return { reply: reply("model", "modelSet", `Model set: ${want}`, { model: want }) };
}

async function undo(args: string, host: CommandHost): Promise<LocalResult> {
  if (!host.task) throw new OpError("invalid_args", "a new task has nothing to undo");
  const apply = args.trim() === "confirm";
  const plan = await host.undo(apply);
  if (!plan || plan.restore.length + plan.remove.length === 0) {
    return {
      reply: reply("undo", "undoNothing", "The last turn changed no file: nothing to undo."),
    };
  }
  const list = [
    ...plan.restore.map((p) => `  restore ${p}`),
    ...plan.remove.map((p) => `  remove ${p}`),
    ...[...plan.conflicts, ...plan.unrewindable].map((c) => `  cannot: ${c.path} (${c.reason})`),
  ].join("\n");
  const n = plan.restore.length + plan.remove.length;
  return apply
    ? { reply: reply("undo", "undoDone", `Rewound the last turn's files:\n${list}`, { n }) }
    : {
      reply: reply(
        "undo",
        "undoPreview",
        `Undoing the last turn would:\n${list}\nSend /undo confirm to do it.`,
        { n },
      ),
    };
}

function resume(_args: string, host: CommandHost): LocalResult {
  const list = host.recent().slice(0, 10);
  if (!list.length) {
    return { reply: reply("resume", "resumeNone", "No other task in this project yet.") };
  }
  const lines = list.map((t) => `  ${t.id}  ${t.title}`);
  return {
    reply: reply(
      "resume",
      "resumeList",
      `Recent tasks of this project (open one from the sidebar, or reinagent run --task ID / --continue):\n${
        lines.join("\n")
      }`,
      { count: list.length },
    ),
  };
}

/** The local commands by name; the `/` menu's metadata is in builtins.ts. */
const HANDLERS: Record<string, Handler> = {
  compact,
  cost,
  model,
  undo,
  resume,
  goal,
  help,
  plan: (args, host) => {
    host.setPlanMode();
    const r = reply(
      "plan",
      "planOn",
      "Plan mode: the agent researches with read-only tools and proposes a plan for you to approve.",
    );
    return args ? { reply: r, send: args } : { reply: r };
  },
  clear: (_args, host) => {
    if (!host.task) throw new OpError("invalid_args", "a new task has nothing to clear");
    host.clear();
    return {
      reply: reply(
        "clear",
        "cleared",
        "Conversation cleared: the model no longer sees the messages before this point.",
      ),
    };
  },
};

async function compact(args: string, host: CommandHost): Promise<LocalResult> {
  if (!host.task) throw new OpError("invalid_args", "a new task has nothing to compact");
  const entry = await host.compact(args);
  const m = entry ? compactMetaOf(entry) : null;
  if (!m) {
    return {
      reply: reply(
        "compact",
        "compactNothing",
        "Nothing to compact yet: the conversation is short.",
      ),
    };
  }
  const seconds = Math.round(m.durationMs / 100) / 10;
  return {
    reply: reply(
      "compact",
      "compacted",
      `Compacted ${m.count} messages (about ${m.tokensBefore} → ${m.tokensAfter} tokens, ${seconds} s).`,
      { count: m.count, before: m.tokensBefore, after: m.tokensAfter, seconds },
    ),
  };
}

/** Whether the command sends a message afterwards (so attachments have somewhere to go). */
const SENDS: Record<string, (args: string) => boolean> = { plan: (args) => args !== "" };

/**
 * Runs `text` as a local command; null when it is none (plain text or a prompt
 * command). A command that sends no message refuses attachments before doing anything.
 */
export async function runLocalCommand(
  text: string,
  host: CommandHost,
  opts: { attachments?: boolean } = {},
): Promise<LocalResult | null> {
  const cmd = parseSlash(text);
  if (!cmd || !Object.hasOwn(HANDLERS, cmd.name)) return null;
  if (opts.attachments && !SENDS[cmd.name]?.(cmd.args)) {
    throw new OpError(
      "invalid_args",
      `/${cmd.name} sends no message, so it takes no attachments: attach them to a message`,
    );
  }
  return await HANDLERS[cmd.name](cmd.args, host);
}
