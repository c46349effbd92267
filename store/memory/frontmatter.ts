/**
 * The frontmatter of a memory file: a `---` fenced block of `key: value` lines (a small
 * YAML subset — values are JSON strings, bare words, booleans) followed by the body.
 * Parsing is strict: anything else is an error, so a file a person broke is reported
 * and left alone rather than read half-way and rewritten.
 *
 * @example
 * parseFrontmatter('---\ntitle: "Tabs"\nunreviewed: true\n---\nUse tabs.\n');
 * // { ok: true, meta: { title: "Tabs", unreviewed: true }, body: "Use tabs.\n" }
 */

export type MetaValue = string | boolean | number;
export type Frontmatter =
  | { ok: true; meta: Record<string, MetaValue>; body: string }
  | { ok: false; error: string };

const KEY = /^([A-Za-z][A-Za-z0-9_-]*):(?:\s+(.*))?$/;

function value(raw: string): MetaValue | undefined {
  const v = raw.trim();
  if (v === "") return "";
  if (v.startsWith('"')) {
    try {
      const s = JSON.parse(v);
      return typeof s === "string" ? s : undefined;
    } catch {
      return undefined;
    }
  }
  if (v.startsWith("'")) {
    return v.length >= 2 && v.endsWith("'") ? v.slice(1, -1).replaceAll("''", "'") : undefined;
  }
  if (v === "true") return true;
  if (v === "false") return false;
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  // A plain scalar: no structure we would misread (lists, maps, anchors).
  if (/^[[{&*!|>]/.test(v)) return undefined;
  return v;
}

export function parseFrontmatter(text: string): Frontmatter {
  const src = text.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n");
  if (!src.startsWith("---\n")) return { ok: false, error: "no frontmatter (must start with ---)" };
  const end = src.indexOf("\n---", 3);
  if (end < 0) return { ok: false, error: "the frontmatter is not closed by ---" };
  const after = src.slice(end + 4);
  if (after !== "" && !after.startsWith("\n")) {
    return { ok: false, error: "the closing --- must be on a line of its own" };
  }
  const meta: Record<string, MetaValue> = {};
  const lines = src.slice(4, end).split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim() || line.trimStart().startsWith("#")) continue;
    const m = KEY.exec(line);
    const v = m ? value(m[2] ?? "") : undefined;
    if (!m || v === undefined) {
      return {
        ok: false,
        error: `frontmatter line ${i + 2} is not "key: value": ${line.slice(0, 80)}`,
      };
    }
    if (Object.hasOwn(meta, m[1])) {
      return { ok: false, error: `frontmatter key "${m[1]}" appears twice` };
    }
    meta[m[1]] = v;
  }
  return { ok: true, meta, body: after.startsWith("\n") ? after.slice(1) : after };
}

/** The file text for `meta` and `body` (strings JSON-quoted: always valid YAML too). */
export function formatFrontmatter(meta: Record<string, MetaValue>, body: string): string {
  const lines = Object.entries(meta).map(([k, v]) =>
    `${k}: ${typeof v === "string" ? JSON.stringify(v) : String(v)}`
  );
  const text = body.endsWith("\n") || body === "" ? body : `${body}\n`;
  return `---\n${lines.join("\n")}\n---\n${text}`;
}
