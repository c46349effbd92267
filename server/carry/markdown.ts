/**
 * An export as Markdown, for reading (the JSON export is the one that imports): per
 * task a heading and a line of facts, then each entry — the user's words, the
 * assistant's text, thinking folded in `<details>`, tool calls with their arguments and
 * results (long results cut, the cut said).
 */
import type { ExportBundle, ExportedTask } from "../../protocol/carry.ts";
import type { Entry, Part } from "../../protocol/domain.ts";

/** Longest tool result or argument text shown, in characters. */
const SHOWN_CHARS = 8000;

/** A fence longer than any run of backticks in the text. */
function fenced(text: string, lang = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

function cut(text: string): string {
  if (text.length <= SHOWN_CHARS) return text;
  return `${text.slice(0, SHOWN_CHARS)}\n… (${text.length - SHOWN_CHARS} more characters)`;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

function usageLine(e: Entry): string {
  const u = e.meta.usage as { input?: number; output?: number } | undefined;
  const model = typeof e.meta.model === "string" ? e.meta.model : "";
  const bits = [model, u ? `${u.input ?? 0} in / ${u.output ?? 0} out tokens` : ""].filter(Boolean);
  return bits.length ? `\n\n<sub>${bits.join(" · ")}</sub>` : "";
}

function partText(p: Part): string {
  switch (p.type) {
    case "text":
      return p.text ?? "";
    case "thinking":
      return `<details><summary>Thinking</summary>\n\n${p.text ?? ""}\n\n</details>`;
    case "tool_call": {
      const args = JSON.stringify(p.data?.args ?? {}, null, 2);
      return `**Tool call** \`${String(p.data?.name ?? "?")}\`\n\n${fenced(cut(args), "json")}`;
    }
    case "tool_result":
      return `**Result**${p.data?.isError ? " (error)" : ""} of \`${
        String(p.data?.name ?? "?")
      }\`\n\n${fenced(cut(p.text ?? ""))}`;
    case "image":
    case "file":
      return `📎 ${String(p.data?.name ?? "attachment")} (${String(p.data?.mime ?? "")}, ${
        String(p.data?.size ?? "?")
      } bytes)`;
  }
}

const HEADINGS: Record<Entry["role"], string> = {
  user: "User",
  assistant: "Assistant",
  tool: "Tool",
  system: "System",
  compact: "Summary (compaction)",
  error: "Error",
};

function entryMarkdown(e: Entry): string {
  const body = e.parts
    // A mention's file text is context, not what was said.
    .filter((p) => !(p.type === "file" && p.data?.mention))
    .map(partText).filter((s) => s.trim()).join("\n\n");
  return `### ${HEADINGS[e.role]} · ${iso(e.createdAt)}\n\n${body || "_(empty)_"}${usageLine(e)}`;
}

export function taskMarkdown(t: ExportedTask): string {
  const facts = [
    `Created ${iso(t.createdAt)}`,
    `updated ${iso(t.updatedAt)}`,
    `workspace ${t.projectPath ?? "(default)"}`,
    `${t.entries.length} entries`,
    `id \`${t.id}\``,
  ];
  return [`## ${t.title}`, facts.join(" · "), ...t.entries.map(entryMarkdown)].join("\n\n");
}

export function bundleMarkdown(b: ExportBundle): string {
  const head = b.tasks.length === 1
    ? []
    : [`# ReinAgent export`, `${b.tasks.length} tasks, exported ${iso(b.exportedAt)}`];
  return [...head, ...b.tasks.map(taskMarkdown)].join("\n\n") + "\n";
}
