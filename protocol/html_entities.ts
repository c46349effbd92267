/**
 * HTML entities, decoded the same way by the web tools (HTML → text) and the UI's
 * Markdown renderer: all numeric ones and a common named subset.
 */
const LENIENT = /&(?:#(\d{1,7});?|#x([0-9a-f]{1,6});?|([a-z][a-z0-9]*);)/gi;
const STRICT = /&(?:#(\d{1,7});|#x([0-9a-f]{1,6});|([a-z][a-z0-9]*);)/gi;

export const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  copy: "©",
  reg: "®",
  trade: "™",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  bull: "•",
  middot: "·",
  deg: "°",
  times: "×",
  divide: "÷",
  plusmn: "±",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  sect: "§",
  para: "¶",
  frac12: "½",
  frac14: "¼",
  frac34: "¾",
  larr: "←",
  rarr: "→",
  uarr: "↑",
  darr: "↓",
  shy: "",
  zwj: "\u200d",
  zwnj: "\u200c",
};

/**
 * Decodes numeric entities and common named ones (named ones need their `;`). With
 * `strict` (Markdown, as CommonMark) numeric ones need their `;` too.
 */
export function decodeEntities(s: string, strict = false): string {
  if (!s.includes("&")) return s;
  return s.replace(strict ? STRICT : LENIENT, (m, d, x, name) => {
    if (name !== undefined) return NAMED_ENTITIES[name] ?? NAMED_ENTITIES[name.toLowerCase()] ?? m;
    const cp = d !== undefined ? parseInt(d, 10) : parseInt(x, 16);
    const bad = cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff);
    return bad ? "\ufffd" : String.fromCodePoint(cp);
  });
}
