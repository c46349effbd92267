/**
 * ReinAgent as an Agent Client Protocol agent: an editor's session is a task (visible
 * and live in every window), a prompt is a message to it, and the task's timeline comes
 * back as session updates — text and thinking chunks, tool calls and their results. An
 * approval the task waits for goes to the editor as a permission request (the app may
 * answer it first; whichever answers first counts), and a cancel stops the run. Everything
 * goes through the ops of a client of the running instance, like a window's.
 *
 * When the editor offers its file system (`fs.readTextFile`, `fs.writeTextFile`) or its
 * terminal, this client attaches to each session's task as its editor (`editor.attach`):
 * the server then asks it, for the task's file tools and commands, to run those ACP
 * methods in the editor, after checking the paths itself; this relays them (only the
 * ones the editor offered, for its own sessions) and sends the answers back.
 */
import {
  agent,
  type AgentContext,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type Stream,
} from "@agentclientprotocol/sdk";
import {
  APPROVALS_TOPIC,
  EDITOR_LIMITS,
  EDITOR_METHODS,
  type EditorAskMsg,
  type EditorCaps,
  type Entry,
  type EvtMsg,
  isTaskEvent,
  type PendingApproval,
  taskState,
  type TaskSummary,
} from "../../protocol/index.ts";
import type { OpClient } from "../cli/op_client.ts";

/** Longest tool output sent to the editor in one update. */
const RESULT_CHARS = 20_000;

type ToolKind = "read" | "edit" | "delete" | "search" | "execute" | "fetch" | "think" | "other";

/** How an editor shows a tool, by our tool names. */
export function toolKind(name: string): ToolKind {
  if (/^(read_file|list_dir|view_image)$/.test(name)) return "read";
  if (/^(write_file|edit_file|multi_edit|apply_patch|notebook_edit)$/.test(name)) return "edit";
  if (/^(glob|grep|search)/.test(name)) return "search";
  if (/^(exec_command|bash|shell|job_)/.test(name)) return "execute";
  if (/^(web_fetch|web_search)$/.test(name)) return "fetch";
  if (/^(todo_write|think)$/.test(name)) return "think";
  return "other";
}

const clip = (s: string, max: number) => s.length > max ? `${s.slice(0, max)}\n… (clipped)` : s;

interface Session {
  taskId: string;
  /** Text already sent per `entryId:partIndex`. */
  sent: Map<string, number>;
  /** Tool calls announced (and finished) to the editor. */
  calls: Set<string>;
  finished: Set<string>;
  /** Approvals asked of the editor. */
  asked: Set<string>;
  prompt: { sawRun: boolean; cancelled: boolean; done(reason: StopReason): void } | null;
}

type StopReason = "end_turn" | "max_turn_requests" | "refusal" | "cancelled";

export interface AcpAgentOptions {
  ops: OpClient;
  version: string;
  /** Where a session without a folder of its own works (the editor always sends one). */
  log?(line: string): void;
}

/** Builds the agent app; `connect(stream)` starts it on a transport. */
export function reinagentAcp(o: AcpAgentOptions) {
  const sessions = new Map<string, Session>();
  let client: AgentContext | null = null;
  const log = o.log ?? (() => {});
  /** What the editor offers ReinAgent's tools (from its initialize capabilities). */
  let offered: EditorCaps = { read: false, write: false, terminal: false };
  let editorName = "editor";

  /** Whether the editor offered what `method` needs. */
  const offers = (method: string) =>
    method === "fs/read_text_file"
      ? offered.read
      : method === "fs/write_text_file"
      ? offered.write
      : method.startsWith("terminal/") && offered.terminal;

  /** Runs what the server asks in the editor and sends the answer back. */
  async function relay(m: EditorAskMsg) {
    let answer: { outcome: "ok"; result: unknown } | { outcome: "error"; error: string };
    if (!sessions.has(m.taskId) || !client) {
      answer = { outcome: "error", error: "no editor session for this task" };
    } else if (!(EDITOR_METHODS as readonly string[]).includes(m.method) || !offers(m.method)) {
      answer = { outcome: "error", error: `the editor does not offer ${String(m.method)}` };
    } else {
      try {
        const result = await client.request(
          m.method as never,
          { ...m.params, sessionId: m.taskId } as never,
        ) ?? null;
        const size = new TextEncoder().encode(JSON.stringify(result)).length;
        answer = size > EDITOR_LIMITS.replyBytes - 4096
          ? { outcome: "error", error: `the editor's answer is too large (${size} bytes)` }
          : { outcome: "ok", result };
      } catch (e) {
        answer = { outcome: "error", error: String((e as Error)?.message ?? e).slice(0, 2000) };
      }
    }
    await o.ops.request("editor.reply", { id: m.id, ...answer }).catch((e: unknown) =>
      log(`acp: answering ${m.method} failed: ${e}`)
    );
  }
  o.ops.onEditorAsk?.((m) => void relay(m));

  const update = (s: Session, u: Record<string, unknown>) =>
    client?.notify(methods.client.session.update, {
      sessionId: s.taskId,
      update: u,
    } as never).catch((e: unknown) => log(`acp: session/update failed: ${e}`));

  function textOut(s: Session, e: Entry, index: number, text: string, kind: string) {
    const key = `${e.id}:${index}`;
    const done = s.sent.get(key) ?? 0;
    const fresh = text.slice(done);
    if (!fresh) return;
    s.sent.set(key, text.length);
    void update(s, {
      sessionUpdate: kind === "thinking" ? "agent_thought_chunk" : "agent_message_chunk",
      content: { type: "text", text: fresh },
    });
  }

  function entryOut(s: Session, e: Entry) {
    if (e.role === "assistant") {
      e.parts.forEach((p, i) => {
        if (p.type === "text" || p.type === "thinking") textOut(s, e, i, p.text ?? "", p.type);
        if (p.type === "tool_call" && p.data && e.status !== "streaming") {
          const id = String(p.data.id ?? "");
          if (!id || s.calls.has(id)) return;
          s.calls.add(id);
          const name = String(p.data.name ?? "tool");
          void update(s, {
            sessionUpdate: "tool_call",
            toolCallId: id,
            title: name,
            kind: toolKind(name),
            status: "in_progress",
            rawInput: p.data.args ?? {},
          });
        }
      });
    } else if (e.role === "tool") {
      const r = e.parts[0];
      const id = String(r?.data?.toolCallId ?? "");
      if (!id || s.finished.has(id)) return;
      s.finished.add(id);
      void update(s, {
        sessionUpdate: "tool_call_update",
        toolCallId: id,
        status: r.data?.isError ? "failed" : "completed",
        content: [{
          type: "content",
          content: { type: "text", text: clip(r.text ?? "", RESULT_CHARS) },
        }],
      });
    } else if (e.role === "error") {
      const text = e.parts.map((p) => p.text ?? "").join("");
      const key = `${e.id}:0`;
      if (s.sent.has(key)) return;
      s.sent.set(key, text.length);
      void update(s, {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: `\n${text}` },
      });
    }
  }

  async function ask(s: Session, a: PendingApproval) {
    s.asked.add(a.id);
    let decision: "allow" | "always" | "reject" | null = null;
    try {
      const r = await client!.request(methods.client.session.requestPermission, {
        sessionId: s.taskId,
        toolCall: {
          toolCallId: a.call.id,
          title: a.summary || a.call.name,
          kind: toolKind(a.call.name),
          status: "pending",
          rawInput: a.call.args,
        },
        options: [
          { optionId: "allow", name: "Allow", kind: "allow_once" },
          { optionId: "always", name: "Always allow in this task", kind: "allow_always" },
          { optionId: "reject", name: "Reject", kind: "reject_once" },
        ],
      } as never) as { outcome: { outcome: string; optionId?: string } };
      const picked = r.outcome.outcome === "selected" ? r.outcome.optionId : null;
      decision = picked === "allow" || picked === "always" || picked === "reject" ? picked : null;
    } catch (e) {
      log(`acp: permission request failed: ${e}`);
    }
    // Cancelled by the editor: the approval stays for the app (or the cancel stops the run).
    if (!decision) return;
    await o.ops.request("approval.decide", { id: a.id, decision }).catch(() => {
      // Answered in the app meanwhile: nothing left to do.
    });
  }

  function approvalsOut(list: PendingApproval[]) {
    for (const a of list) {
      if (!a.live || a.kind === "question") continue;
      const s = sessions.get(a.taskId);
      if (s && !s.asked.has(a.id)) void ask(s, a);
    }
  }

  async function finishPrompt(s: Session) {
    const p = s.prompt;
    if (!p) return;
    s.prompt = null;
    if (p.cancelled) return p.done("cancelled");
    const { tasks } = await o.ops.request<{ tasks: TaskSummary[] }>("tasks.list", {
      ids: [s.taskId],
    }).catch(() => ({ tasks: [] as TaskSummary[] }));
    const state = tasks[0] ? taskState(tasks[0]) : "done";
    p.done(
      state === "stopped" ? "cancelled" : state === "maxSteps" ? "max_turn_requests" : "end_turn",
    );
  }

  o.ops.onEvent((m: EvtMsg) => {
    if (m.topic === APPROVALS_TOPIC) {
      if (m.data.kind === "list") approvalsOut(m.data.approvals);
      return;
    }
    if (!isTaskEvent(m)) return;
    const s = sessions.get(m.topic.slice(5));
    if (!s) return;
    const d = m.data;
    if (d.kind === "entry") entryOut(s, d.entry);
    else if (d.kind === "delta") {
      const key = `${d.entryId}:${d.index}`;
      s.sent.set(key, (s.sent.get(key) ?? 0) + d.text.length);
      void update(s, {
        sessionUpdate: d.type === "thinking" ? "agent_thought_chunk" : "agent_message_chunk",
        content: { type: "text", text: d.text },
      });
    } else if (d.kind === "run") {
      if (d.run && s.prompt) s.prompt.sawRun = true;
      else if (!d.run && s.prompt?.sawRun) void finishPrompt(s);
    }
  });

  const sessionOf = (id: string): Session => {
    const s = sessions.get(id);
    if (!s) throw RequestError.resourceNotFound(id);
    return s;
  };

  const initialized = () => ({
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: false,
      promptCapabilities: { image: false, audio: false, embeddedContext: true },
    },
    authMethods: [],
    agentInfo: { name: "reinagent", title: "ReinAgent", version: o.version },
  });

  const app = agent({ name: "reinagent" })
    .onConnect((c) => {
      client = c.client;
    })
    .onRequest(methods.agent.initialize, ({ params }) => {
      const caps = (params as {
        clientCapabilities?: {
          fs?: { readTextFile?: unknown; writeTextFile?: unknown };
          terminal?: unknown;
        };
        clientInfo?: { name?: unknown };
      }).clientCapabilities;
      offered = {
        read: caps?.fs?.readTextFile === true,
        write: caps?.fs?.writeTextFile === true,
        terminal: caps?.terminal === true,
      };
      const name = (params as { clientInfo?: { name?: unknown } }).clientInfo?.name;
      if (typeof name === "string" && name.trim()) editorName = name.trim().slice(0, 80);
      return initialized();
    })
    .onRequest(methods.agent.authenticate, () => ({}))
    .onRequest(methods.agent.session.new, async ({ params }) => {
      const cwd = typeof params.cwd === "string" && params.cwd.startsWith("/") ? params.cwd : null;
      const { task } = await o.ops.request<{ task: TaskSummary }>("tasks.create", {
        title: `Editor: ${cwd?.split("/").filter(Boolean).pop() ?? "session"}`,
        projectPath: cwd,
      });
      await o.ops.request("task.subscribe", { id: task.id });
      sessions.set(task.id, {
        taskId: task.id,
        sent: new Map(),
        calls: new Set(),
        finished: new Set(),
        asked: new Set(),
        prompt: null,
      });
      // The task's file tools and commands use the editor's, when it offers them.
      if (offered.read || offered.write || offered.terminal) {
        await o.ops.request("editor.attach", { id: task.id, ...offered, name: editorName })
          .catch((e: unknown) => log(`acp: the editor's files and terminal stay unused: ${e}`));
      }
      // An approval already waiting (none for a new task today) would be asked at once.
      const { approvals } = await o.ops.request<{ approvals: PendingApproval[] }>("approvals.list");
      approvalsOut(approvals);
      return { sessionId: task.id };
    })
    .onRequest(methods.agent.session.prompt, async ({ params }) => {
      const s = sessionOf(params.sessionId);
      if (s.prompt) throw RequestError.invalidRequest(undefined, "a prompt is already running");
      const text = (params.prompt as {
        type: string;
        text?: string;
        resource?: { uri?: string; text?: string };
        uri?: string;
      }[])
        .map((b) =>
          b.type === "text"
            ? b.text ?? ""
            : b.type === "resource" && typeof b.resource?.text === "string"
            ? `\n<context uri="${b.resource.uri ?? ""}">\n${b.resource.text}\n</context>\n`
            : b.type === "resource_link" && b.uri
            ? ` ${b.uri} `
            : ""
        ).join("").trim();
      if (!text) throw RequestError.invalidParams(undefined, "the prompt has no text");
      const ended = new Promise<StopReason>((done) => {
        s.prompt = { sawRun: false, cancelled: false, done };
      });
      try {
        await o.ops.request("task.send", { id: s.taskId, text });
      } catch (e) {
        s.prompt = null;
        throw RequestError.internalError(undefined, (e as Error).message);
      }
      return { stopReason: await ended };
    })
    .onNotification(methods.agent.session.cancel, async ({ params }) => {
      const s = sessions.get(params.sessionId);
      if (!s) return;
      if (s.prompt) s.prompt.cancelled = true;
      await o.ops.request("task.stop", { id: s.taskId }).catch((e: unknown) =>
        log(`acp: stopping ${s.taskId} failed: ${e}`)
      );
    });

  return {
    connect: (stream: Stream) => app.connect(stream),
    sessions,
  };
}
