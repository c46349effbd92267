/**
 * The memory of a turn: the files (with the FTS index), and what the user's latest
 * message allows the `memory` tool (tools/memory.ts). "Asked" is decided here from
 * the user's own words — the model cannot claim it.
 */
import { memoryRoot } from "../../store/memory/paths.ts";
import { MemoryFiles } from "../../store/memory/files.ts";
import type { Repos } from "../../store/store.ts";
import type { Entry } from "../../protocol/index.ts";
import type { MemoryAccess } from "../../tools/memory.ts";

/**
 * Phrases of a user who asks to keep, change or drop a memory (en, zh): an imperative
 * ("remember …" at the start of a sentence or after "please" / "can you"), or a verb
 * with "memory" ("save this to memory", "更新记忆"). "I don't remember where it is" or
 * "我忘记了密码" ask for nothing.
 */
const ASKS = [
  /(?:^|[.!?;:\n]\s*|\b(?:please|pls|can you|could you|would you|and|also|then)\s+)(?:remember|memori[sz]e|note down|make a note|keep in mind|don'?t forget|do not forget|forget)\b/i,
  /\b(?:save|add|store|put|write|record|update|change|edit|delete|remove|drop)\b[^.?!\n]{0,40}\b(?:memory|memories)\b/i,
  /记住|记下|记一下|记好|别忘|不要忘|忘掉|(?:保存|存|写|加|记|放|更新|修改|删除|删掉|去掉)[^。？！\n]{0,12}记忆/,
];

/** Whether a user's message asks for a memory change ("remember that …", "记住…"). */
export function userAskedMemory(text: string): boolean {
  return ASKS.some((re) => re.test(text));
}

/** The latest user message's typed text (a slash command's expansion is not the user's words). */
export function latestUserText(entries: Entry[]): string {
  const last = entries.filter((e) => e.role === "user").at(-1);
  if (!last) return "";
  return last.parts.filter((p) => p.type === "text").map((p) => p.text ?? "").join("\n");
}

export const memoryFilesOf = (home: string, repos: Repos | null, now?: () => number) =>
  new MemoryFiles(memoryRoot(home), repos?.memoryIndex ?? null, now);

/** What the memory tool may do in one turn of a task in `projectPath`. */
export function memoryAccess(
  files: MemoryFiles,
  projectPath: string,
  entries: Entry[],
  changed?: MemoryAccess["changed"],
): MemoryAccess {
  return {
    files,
    projectPath,
    userAsked: userAskedMemory(latestUserText(entries)),
    writes: { n: 0 },
    ...(changed ? { changed } : {}),
  };
}
