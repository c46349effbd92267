/**
 * The memory index of the per-turn reminder: the memories the user
 * accepted, global and this project's, at most {@link MEMORY_LIMITS.indexPerBucket}
 * per bucket (most recently updated first) and {@link MEMORY_LIMITS.indexChars} in all.
 * Proposals (`unreviewed`) are left out entirely: nothing the user did not accept is
 * given to the model as fact. Bodies are not included — the model reads one with the
 * `memory` tool when it needs it (the index says what exists and when it matters).
 */
import { MEMORY_LIMITS, type MemoryItem } from "../../protocol/memory.ts";
import type { MemoryFiles } from "../../store/memory/files.ts";

const L = MEMORY_LIMITS;

const HEADER = "# Memory\nMemories the user accepted (facts and preferences from earlier tasks). " +
  "Follow them unless the current request says otherwise; read one with the memory tool " +
  '({"action":"read","id":…}) for its full text.';

/** One line per memory (a hand-edited description is cut to the limit the tool has). */
const entry = (i: MemoryItem) => {
  const d = i.description.replace(/\s+/g, " ").slice(0, L.descriptionChars);
  return `- ${i.id} (${i.type}): ${i.title}${d ? ` — ${d}` : ""}`;
};

/** The reminder's memory section, or null when no accepted memory exists. */
export async function memorySection(
  files: MemoryFiles,
  projectPath: string,
): Promise<string | null> {
  const parts: { name: string; lines: string[]; total: number }[] = [];
  for (const b of [files.bucket("project", projectPath), files.bucket("global")]) {
    let accepted: MemoryItem[];
    try {
      accepted = (await files.list(b)).items.filter((i) => !i.unreviewed);
    } catch (e) {
      // An unreadable memory folder must not stop the turn; the Memory page shows why.
      console.warn(`memory: listing ${b.dir} failed: ${(e as Error).message}`);
      continue;
    }
    if (!accepted.length) continue;
    parts.push({
      name: b.scope === "project" ? "This project" : "Global (every project)",
      lines: accepted.slice(0, L.indexPerBucket).map(entry),
      total: accepted.length,
    });
  }
  if (!parts.length) return null;
  let out = HEADER;
  for (const p of parts) {
    let block = `\n## ${p.name}`;
    let shown = 0;
    for (const l of p.lines) {
      if (out.length + block.length + l.length + 1 > L.indexChars - 80) break;
      block += `\n${l}`;
      shown++;
    }
    if (shown < p.total) block += `\n(${p.total - shown} more: use memory list or search)`;
    out += block;
  }
  return out.slice(0, L.indexChars);
}
