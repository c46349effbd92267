/**
 * The frontmatter of a SKILL.md: `name` and `description` as Claude Code and Codex
 * write them — plain, quoted, or a `|` / `>` block over several lines. Only those two
 * keys matter here; anything else is ignored. Values are made safe to show and to put
 * in the model's reminder: control characters removed, whitespace folded, bounded.
 */
import { SKILL_LIMITS } from "../../protocol/skills.ts";

export interface SkillMeta {
  name: string | null;
  description: string | null;
  body: string;
}

/** Control characters (also bidi overrides) out, whitespace folded, at most `max` characters. */
export function cleanText(raw: string, max: number): string {
  // deno-lint-ignore no-control-regex
  const t = raw.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, " ")
    .replace(/\s+/g, " ").trim();
  const chars = [...t];
  return chars.length > max ? chars.slice(0, max - 1).join("") + "…" : t;
}

function unquote(v: string): string {
  const t = v.trim();
  if (t.length >= 2 && t.startsWith('"') && t.endsWith('"')) {
    try {
      return JSON.parse(t);
    } catch {
      return t.slice(1, -1);
    }
  }
  if (t.length >= 2 && t.startsWith("'") && t.endsWith("'")) {
    return t.slice(1, -1).replace(/''/g, "'");
  }
  // A trailing YAML comment on a plain value.
  return t.replace(/\s+#.*$/, "");
}

/** Reads `key: value` pairs (with block scalars) from the lines between the `---`. */
function readBlock(lines: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const m = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(lines[i]);
    if (!m) continue;
    const key = m[1].toLowerCase();
    const rest = m[2];
    const block = /^([|>])[+-]?\s*$/.exec(rest);
    // Continuation lines: indented (a block scalar, or a plain value folded over lines).
    const more: string[] = [];
    while (i + 1 < lines.length && (/^\s+\S/.test(lines[i + 1]) || lines[i + 1].trim() === "")) {
      more.push(lines[++i].trim());
    }
    if (block) {
      out[key] = block[1] === "|" ? more.join("\n") : more.join(" ");
    } else {
      out[key] = [unquote(rest), ...more].join(" ");
    }
  }
  return out;
}

/** Name and description of a SKILL.md text (null when absent), and its body. */
export function parseSkillFile(text: string): SkillMeta {
  const src = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (!/^---[ \t]*\n/.test(src)) return { name: null, description: null, body: src };
  const lines = src.split("\n");
  const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)[ \t]*$/.test(l));
  if (end < 0) return { name: null, description: null, body: src };
  const meta = readBlock(lines.slice(1, end));
  const name = meta.name ? cleanText(meta.name, SKILL_LIMITS.nameChars) : "";
  const description = meta.description
    ? cleanText(meta.description, SKILL_LIMITS.descriptionChars)
    : "";
  return {
    name: name || null,
    description: description || null,
    body: lines.slice(end + 1).join("\n"),
  };
}
