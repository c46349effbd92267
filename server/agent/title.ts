/**
 * Task titles: the first 30 characters at once (quickTitle), then a 3–7
 * word title from the task's model (thinking stripped), falling back to a local rule
 * when the model is unavailable (offline, Demo, error).
 */
import { type Adapter, type ModelInfo, type ProviderConfig, sideText } from "../../agent/index.ts";
import type { Entry, TaskSummary } from "../../protocol/index.ts";
import type { Repos } from "../../store/store.ts";

const GREETINGS = [
  /^(hi|hello|hey|yo)( there)?\b[,!.\s]*/i,
  /^(please|pls|could you|can you|would you)\s+(help\s+me\s+)?/i,
  /^help\s+me\s+(to\s+)?/i,
  /^(你好|您好|嗨|哈喽)[，,！!。\s]*/,
  /^(请帮我|帮我|请你|请|麻烦你?)\s*/,
];

/** Local, offline title: strips greetings/politeness and a trailing question mark. */
export function localTitle(text: string): string {
  let t = text.trim().split("\n")[0].trim().replace(/\s+/g, " ");
  for (let changed = true; changed;) {
    changed = false;
    for (const re of GREETINGS) {
      const next = t.replace(re, "");
      if (next !== t) {
        t = next.trim();
        changed = true;
      }
    }
  }
  t = t.replace(/[?？]+$/, "").trim();
  const chars = [...t];
  t = chars.length > 40 ? chars.slice(0, 40).join("") + "…" : t;
  return t ? t[0].toUpperCase() + t.slice(1) : "New task";
}

/** Cleans a model's answer into a title: no thinking, quotes, trailing punctuation. */
export function cleanTitle(raw: string): string | null {
  const t = raw.replace(/<think>[\s\S]*?<\/think>/g, "").trim().split("\n")[0]
    .replace(/^["'“”‘’`*#\s]+|["'“”‘’`*\s.。!！]+$/g, "").trim();
  if (!t || [...t].length > 60) return null;
  return t;
}

export async function modelTitle(
  adapter: Adapter,
  provider: ProviderConfig,
  model: ModelInfo,
  text: string,
  signal: AbortSignal,
): Promise<string | null> {
  const out = await sideText({ adapter, provider, model }, {
    system:
      "You write short titles. Reply with a 3-7 word title for the user's request, in the user's language. No quotes, no punctuation at the end, nothing else.",
    user: text.slice(0, 4000),
    maxTokens: 64,
  }, signal);
  return cleanTitle(out);
}

/**
 * Sets the task's title asynchronously unless the user renamed it meanwhile. Resolves
 * when done; `signal` (shutdown) cancels it without writing anything.
 */
export async function maybeGenerateTitle(
  task: TaskSummary,
  history: Entry[],
  ctx: {
    provider: ProviderConfig;
    model: ModelInfo;
    adapter: Adapter;
    repos: Repos;
    taskChanged(t: TaskSummary): void;
  },
  signal: AbortSignal,
): Promise<void> {
  if (task.settings.titleLocked) return;
  const user = history.find((e) => e.role === "user");
  // A slash command is titled by what it asks (its expansion), not by "/init".
  const prompt = (user?.meta.command as { prompt?: unknown } | undefined)?.prompt;
  const first = typeof prompt === "string"
    ? prompt
    : user?.parts.find((p) => p.type === "text")?.text ?? "";
  if (!first.trim()) return;
  const apply = (title: string) => {
    if (signal.aborted) return;
    const current = ctx.repos.tasks.get(task.id);
    if (!current || current.settings.titleLocked || current.title === title) return;
    const t = ctx.repos.tasks.rename(task.id, title);
    if (t) ctx.taskChanged(t);
  };
  if (ctx.provider.format === "demo") {
    apply(localTitle(first));
    return;
  }
  let title: string | null = null;
  try {
    title = await modelTitle(
      ctx.adapter,
      ctx.provider,
      ctx.model,
      first,
      AbortSignal.any([signal, AbortSignal.timeout(30_000)]),
    );
  } catch {
    // Offline, failing or slow model: the local rule below gives the title.
  }
  apply(title ?? localTitle(first));
}
