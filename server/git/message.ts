/**
 * A commit message for the staged changes: a small side request to
 * the task's model with the bounded staged diff, as for task titles (agent/title.ts);
 * a local summary from `--stat` when no model answers (Demo, offline, error).
 */
import { type Adapter, type ModelInfo, type ProviderConfig, sideText } from "../../agent/index.ts";

const SYSTEM = "You write git commit messages. Reply with the message only: a summary line " +
  "of at most 72 characters in the imperative mood, optionally a blank line and a short " +
  "body. No quotes, no code fences, nothing else.";

/** "Update a.ts, b.ts and 3 more files" from `git diff --cached --stat`. */
export function localMessage(stat: string): string {
  const files = stat.split("\n").map((l) => /^\s*(.+?)\s+\|/.exec(l)?.[1]?.trim())
    .filter((x): x is string => !!x);
  if (!files.length) return "Update files";
  const base = files.map((f) => f.slice(f.lastIndexOf("/") + 1));
  const shown = base.slice(0, 2).join(", ");
  return files.length > 2
    ? `Update ${shown} and ${files.length - 2} more files`
    : `Update ${shown}`;
}

/** The model's answer cleaned into a message, or null when unusable. */
export function cleanMessage(raw: string): string | null {
  const t = raw.replace(/<think>[\s\S]*?<\/think>/g, "").replace(/^```\w*\n?|```\s*$/g, "")
    .trim();
  if (!t || t.length > 5000) return null;
  return t;
}

export async function modelMessage(
  adapter: Adapter,
  provider: ProviderConfig,
  model: ModelInfo,
  diff: { stat: string; patch: string },
  signal: AbortSignal,
): Promise<string | null> {
  const out = await sideText({ adapter, provider, model }, {
    system: SYSTEM,
    user: `Staged changes:\n${diff.stat}\n${diff.patch}`,
    maxTokens: 300,
  }, signal);
  return cleanMessage(out);
}
