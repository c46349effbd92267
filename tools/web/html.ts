/** Small HTML helpers for the web tools (no DOM in Deno): attributes, HTML → text. */
import { decodeEntities } from "../../protocol/html_entities.ts";

export { decodeEntities };

/** Matches a start tag; attribute values may contain `>` when quoted. Groups: name, attrs. */
export const START_TAG = /<([a-z][a-z0-9]*)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;

/** Attributes of a start tag's attribute text (any order, any quoting), entity-decoded. */
export function parseAttrs(src: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  const re = /([^\s"'<>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (const m of src.matchAll(re)) {
    const key = m[1].toLowerCase();
    if (!(key in attrs)) attrs[key] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "");
  }
  return attrs;
}

export const hasClass = (attrs: Record<string, string>, cls: string): boolean =>
  (attrs.class ?? "").split(/\s+/).includes(cls);

/** Inline HTML → one line of plain text (tags dropped, entities decoded, spaces collapsed). */
export const inlineText = (html: string): string =>
  decodeEntities(html.replace(/<[^>]*>/g, "")).replace(/[\s\u00a0]+/g, " ").trim();

const DROP =
  /<(script|style|noscript|svg|template|iframe|object|canvas|math)\b[\s\S]*?(?:<\/\1\s*>|$)/gi;
const PARA =
  /<\/?(p|blockquote|ul|ol|dl|table|section|article|main|header|footer|nav|aside|form|figure|details|hr)\b[^>]*>/gi;
const LINE =
  /<\/?(div|tr|dd|dt|summary|figcaption|address|fieldset|caption|tbody|thead)\b[^>]*>|<br\s*\/?>/gi;

/**
 * Readable text from an HTML page: drops script/style/noscript/svg, marks headings with `#`,
 * list items with `- `, keeps paragraph and line breaks, keeps `<pre>` as-is, writes links as
 * "text (url)" (resolved against `base`), decodes entities and collapses whitespace.
 */
export function htmlToText(html: string, base?: string): { title: string; text: string } {
  let s = html.replace(/<!--[\s\S]*?(?:-->|$)/g, "");
  const titleMatch = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(s);
  const title = titleMatch ? inlineText(titleMatch[1]) : "";
  s = s.replace(/<title\b[^>]*>[\s\S]*?<\/title\s*>/gi, " ").replace(DROP, " ");
  const pres: string[] = [];
  s = s.replace(/<pre\b[^>]*>([\s\S]*?)(?:<\/pre\s*>|$)/gi, (_, inner: string) => {
    pres.push(decodeEntities(inner.replace(/<br\s*\/?>/gi, "\n").replace(/<[^>]*>/g, "")));
    return `\ue000PRE${pres.length - 1}\ue001`;
  });
  s = s.replace(/\s+/g, " ");
  s = s.replace(/<a\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/a\s*>/gi, (_, a: string, inner) => {
    const text = inner.replace(/<[^>]*>/g, "").trim();
    const href = parseAttrs(a).href?.trim() ?? "";
    if (!text || !href || href.startsWith("#") || /^(javascript|data):/i.test(href)) return text;
    let url: string;
    try {
      url = new URL(href, base).href;
    } catch {
      return text;
    }
    // `&` is escaped so the final entity pass cannot decode parts of the URL a second time.
    const safe = url.replace(/&/g, "&amp;");
    return decodeEntities(text) === url ? safe : `${text} (${safe})`;
  });
  s = s
    .replace(/<h([1-6])\b[^>]*>/gi, (_, n) => `\n\n${"#".repeat(Number(n))} `)
    .replace(/<\/h[1-6]\s*>/gi, "\n\n")
    .replace(/<li\b[^>]*>/gi, "\n- ")
    .replace(/<\/t[dh]\s*>/gi, " | ")
    .replace(PARA, "\n\n")
    .replace(LINE, "\n")
    .replace(/\ue000PRE\d+\ue001/g, "\n\n$&\n\n")
    .replace(/<[a-z][a-z0-9]*\b(?:[^>"']|"[^"]*"|'[^']*')*>|<\/[a-z][^>]*>|<[!?][^>]*>/gi, "");
  const lines = decodeEntities(s).split("\n").map((l) =>
    l.replace(/[ \t\u00a0]+/g, " ").trim().replace(/^\|\s*|\s*\|$/g, "")
  );
  const text = lines.filter((l) => l !== "-" && l !== "#").join("\n")
    .replace(/\n{3,}/g, "\n\n").trim()
    .replace(/\ue000PRE(\d+)\ue001/g, (_, i) => pres[Number(i)].replace(/^\n+|\s+$/g, ""));
  return { title, text };
}
