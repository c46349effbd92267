/**
 * The Demo model: built in, no key, deterministic. It streams thinking
 * and text and makes real tool calls through the normal loop — list the workspace,
 * read a file, and only when the prompt asks for a file ({@link asksForFile}) write a
 * note (which goes through approval when the mode asks) — so a new user sees the
 * whole product without an account, and nothing is written they did not ask for.
 */
import type {
  Adapter,
  LlmMessage,
  ModelInfo,
  ProviderConfig,
  StreamEvent,
  StreamRequest,
} from "./types.ts";

export { DEMO_PROVIDER_ID } from "../../protocol/constants.ts";
import { DEMO_PROVIDER_ID } from "../../protocol/constants.ts";
export const DEMO_MODEL: ModelInfo = {
  id: "demo",
  name: "Demo (no key, scripted)",
  enabled: true,
  contextWindow: 32_000,
  maxOutput: 4_000,
  vision: false,
  // Scripted: it thinks the same at every level, so it declares only Default.
  effortLevels: ["default"],
  defaultEffort: "default",
  source: "builtin",
  // Scripted and local: it really costs nothing.
  price: { currency: "USD", input: 0, output: 0, cacheRead: 0, cacheWrite: 0, source: "builtin" },
};
export const DEMO_PROVIDER: ProviderConfig = {
  id: DEMO_PROVIDER_ID,
  name: "Demo",
  format: "demo",
  baseUrl: "",
  apiKey: "",
  enabled: true,
  models: [DEMO_MODEL],
};

const CHUNK_DELAY_MS = 12;

function words(s: string): string[] {
  return s.match(/\S+\s*/g) ?? [];
}

/** Messages after the last user message: what the demo has done this turn. */
function sinceLastUser(messages: LlmMessage[]): LlmMessage[] {
  let i = messages.length - 1;
  while (i >= 0 && messages[i].role !== "user") i--;
  return messages.slice(i + 1);
}

/** What the user typed last: without the per-turn reminder and attached files' text. */
function lastUserText(messages: LlmMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === "user") {
      return m.content.filter((b) => b.type === "text").map((b) => (b as { text: string }).text)
        .filter((text) => !/^<(system-reminder|file)[\s>]/.test(text))
        .join(" ");
    }
  }
  return "";
}

/**
 * Whether a prompt asks for a file to be written: a verb such as write / create /
 * save next to a file-ish word ("file", "note", a name like `a.md`), or 写/创建/保存 …
 * 文件/笔记. Anything else only lists and reads.
 *
 * @example
 * asksForFile("write a note file");  // true
 * asksForFile("show me around");     // false
 */
export function asksForFile(prompt: string): boolean {
  const en =
    /\b(write|create|save|make|add|generate|put)\b[^.!?\n]{0,60}?(\bfiles?\b|\bnotes?\b|\bdocument\b|\b[\w-]+\.[a-z0-9]{1,5}\b)/i;
  const zh = /(写|创建|新建|保存|生成)[^。！？\n]{0,20}?(文件|笔记)/;
  return en.test(prompt) || zh.test(prompt);
}

interface Plan {
  thinking: string;
  text: string;
  call?: { name: string; args: Record<string, unknown> };
}

/** Chooses the next step from what happened so far in this turn. */
export function demoPlan(req: Pick<StreamRequest, "messages" | "tools">): Plan {
  const has = (n: string) => req.tools.some((t) => t.name === n);
  const turn = sinceLastUser(req.messages);
  const results = turn.filter((m) => m.role === "tool") as Extract<LlmMessage, { role: "tool" }>[];
  const prompt = lastUserText(req.messages);
  const asked = prompt.replace(/\s+/g, " ").trim().slice(0, 80);
  const step = results.length;
  if (step === 0 && has("list_dir")) {
    return {
      thinking:
        `The user asked: "${asked}". I am the Demo model, so I will show how tools work: first I list the workspace.`,
      text: "Let me look at your workspace first.",
      call: { name: "list_dir", args: { path: "." } },
    };
  }
  if (step === 1 && has("read_file")) {
    const listing = results[0].content;
    const file = listing.split("\n").map((l) =>
      l.match(/^(?:file\s+)?(\S[^\t]*?)\s+\d+ B$/)?.[1] ?? l.match(/^f\s+(\S+)/)?.[1]
    )
      .find((f) => f && !f.endsWith("/"));
    if (file && !results[0].isError) {
      return {
        thinking: `The listing shows ${file}. Reading it shows the read tool.`,
        text: `Reading \`${file}\`.`,
        call: { name: "read_file", args: { path: file, limit: 40 } },
      };
    }
  }
  if (
    step <= 2 && has("write_file") && asksForFile(prompt) &&
    !results.some((r) => r.name === "write_file")
  ) {
    return {
      thinking:
        "The user asked for a file, so I write a note. Auto-edit and Full access write it at once (Rewind can undo it); Ask mode asks first.",
      text: "I'll write a short note into the workspace.",
      call: {
        name: "write_file",
        args: {
          path: "demo-note.md",
          content: `# Demo note\n\nWritten by the ReinAgent Demo model.\n\nYou asked: ${asked}\n`,
        },
      },
    };
  }
  const did = results.map((r) => `\`${r.name}\`${r.isError ? " (failed)" : ""}`).join(", ");
  return {
    thinking: "Summarise what happened.",
    text: results.length
      ? `Done. I used ${did}.${
        results.some((r) => r.name === "write_file")
          ? ""
          : " I only looked: ask me to write a file to see a change (and Rewind it)."
      } This was the **Demo** model: configure a real provider in Settings → Providers to do real work.`
      : `Hello! I am the **Demo** model — scripted, no account needed. You said: "${asked}". Configure a real provider in Settings → Providers to do real work.`,
  };
}

export const demo: Adapter = {
  async *stream(req: StreamRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    const plan = demoPlan(req);
    const pause = () => new Promise((r) => setTimeout(r, CHUNK_DELAY_MS));
    for (const w of words(plan.thinking)) {
      if (signal.aborted) return;
      yield { type: "thinking", delta: w };
      await pause();
    }
    for (const w of words(plan.text)) {
      if (signal.aborted) return;
      yield { type: "text", delta: w };
      await pause();
    }
    if (plan.call) {
      yield {
        type: "tool_call_start",
        index: 0,
        id: `demo_${req.messages.length}`,
        name: plan.call.name,
      };
      yield {
        type: "tool_call",
        index: 0,
        id: `demo_${req.messages.length}`,
        name: plan.call.name,
        args: plan.call.args,
      };
    }
    const chars = JSON.stringify(req.messages).length + req.system.length;
    yield {
      type: "usage",
      usage: {
        input: Math.ceil(chars / 4),
        output: Math.ceil((plan.thinking.length + plan.text.length) / 4),
        cacheRead: 0,
        cacheWrite: 0,
        reasoning: Math.ceil(plan.thinking.length / 4),
      },
    };
    yield { type: "stop", reason: plan.call ? "tool_use" : "end" };
  },
};
