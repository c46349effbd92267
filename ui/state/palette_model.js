/**
 * Pure logic of the command palette and the keyboard shortcuts, no DOM:
 * the fuzzy matcher that ranks actions, the shortcut registry with its chords, how a
 * keydown maps to a shortcut, how a chord is shown, and conflict detection.
 *
 * @typedef {{id: string, title: string, keywords?: string, group: string,
 *   shortcut?: string}} PaletteAction
 * @typedef {{score: number, hits: number[]}} FuzzyMatch
 * @typedef {{id: string, keys: string, inEditable: boolean, fixed?: boolean}} Shortcut
 * @typedef {{key: string, ctrlKey: boolean, metaKey: boolean, altKey: boolean,
 *   shiftKey: boolean}} KeyLike
 */

/** Longest query the palette reads (a pasted novel is not a command). */
export const QUERY_MAX = 100;

/** Whether `text[i]` starts a word (after a separator, or a camelCase hump). */
const isWordStart = (/** @type {string} */ text, /** @type {number} */ i) =>
  i === 0 || /[\s\-_/:.·]/.test(text[i - 1]) ||
  (text[i - 1] === text[i - 1].toLowerCase() && text[i] !== text[i].toLowerCase());

/**
 * Fuzzy subsequence match, case-insensitive: every query character must appear in
 * order. Consecutive characters, word starts and an early first hit score higher; a
 * plain substring scores highest. Spaces in the query are ignored.
 * @param {string} query
 * @param {string} text
 * @returns {FuzzyMatch|null} null when the query does not match
 */
export function fuzzyMatch(query, text) {
  const q = query.slice(0, QUERY_MAX).toLowerCase().replace(/\s+/g, "");
  if (!q) return { score: 0, hits: [] };
  const low = text.toLowerCase();
  /** @type {number[]} */
  const hits = [];
  let score = 0;
  let from = 0;
  let prev = -2;
  for (const ch of q) {
    // Prefer the next occurrence at a word start, else the next one at all.
    let i = low.indexOf(ch, from);
    if (i < 0) return null;
    if (i !== prev + 1 && !isWordStart(text, i)) {
      for (let j = low.indexOf(ch, i + 1); j >= 0; j = low.indexOf(ch, j + 1)) {
        if (isWordStart(text, j)) {
          i = j;
          break;
        }
      }
    }
    score += 1;
    if (i === prev + 1) score += 3;
    if (isWordStart(text, i)) score += 2;
    hits.push(i);
    prev = i;
    from = i + 1;
  }
  score -= hits[0] * 0.1 + (text.length - q.length) * 0.01;
  // A plain substring beats scattered letters; one at a word start beats one inside.
  let sub = low.indexOf(q);
  for (let j = sub; j >= 0; j = low.indexOf(q, j + 1)) {
    if (isWordStart(text, j)) {
      sub = j;
      break;
    }
  }
  if (sub >= 0) {
    const subScore = q.length * 4 - 3 + (isWordStart(text, sub) ? 12 : 0) + 10 +
      (sub === 0 ? 5 : 0) - sub * 0.1 - (text.length - q.length) * 0.01;
    if (subScore >= score) {
      return { score: subScore, hits: [...q].map((_, k) => sub + k) };
    }
  }
  return { score, hits };
}

/**
 * The actions that match `query`, best first (the title counts fully, keywords a
 * little less); an empty query keeps the registry's order.
 * @template {PaletteAction} A
 * @param {A[]} actions
 * @param {string} query
 * @returns {{action: A, hits: number[]}[]} `hits` are positions in the title
 */
export function rankActions(actions, query) {
  if (!query.trim()) return actions.map((action) => ({ action, hits: [] }));
  /** @type {{action: A, hits: number[], score: number, at: number}[]} */
  const out = [];
  actions.forEach((action, at) => {
    const byTitle = fuzzyMatch(query, action.title);
    const byWords = action.keywords ? fuzzyMatch(query, action.keywords) : null;
    const best = byTitle && (!byWords || byTitle.score >= byWords.score - 2)
      ? { score: byTitle.score, hits: byTitle.hits }
      : byWords
      ? { score: byWords.score - 2, hits: [] }
      : null;
    if (best) out.push({ action, ...best, at });
  });
  out.sort((a, b) => b.score - a.score || a.at - b.at);
  return out.map(({ action, hits }) => ({ action, hits }));
}

/**
 * Moves the highlighted row by `delta`, wrapping around.
 * @param {number} active
 * @param {number} delta
 * @param {number} count
 */
export function moveIndex(active, delta, count) {
  if (count <= 0) return 0;
  return (((active + delta) % count) + count) % count;
}

/**
 * The shortcut registry. `Mod` is Cmd on macOS, Ctrl elsewhere. `inEditable`: the
 * shortcut also works while typing in a text field (only chords with a modifier that
 * no text field uses). Search and find are handled by the search layer; they are
 * listed here so that the help and the palette show them and conflicts are checked;
 * they cannot be rebound (`fixed`).
 * @type {Shortcut[]}
 */
export const SHORTCUTS = [
  { id: "palette", keys: "Mod+Shift+P", inEditable: true },
  { id: "search", keys: "Mod+K", inEditable: true, fixed: true },
  { id: "find", keys: "Mod+F", inEditable: true, fixed: true },
  { id: "shortcuts", keys: "?", inEditable: false },
  { id: "prevQuestion", keys: "Alt+ArrowUp", inEditable: false },
  { id: "nextQuestion", keys: "Alt+ArrowDown", inEditable: false },
];

/**
 * @param {string} keys e.g. "Mod+Shift+P"
 * @returns {{mod: boolean, shift: boolean, alt: boolean, key: string}}
 */
export function parseChord(keys) {
  const parts = keys.split("+");
  const key = parts.pop() ?? "";
  return {
    mod: parts.includes("Mod"),
    shift: parts.includes("Shift"),
    alt: parts.includes("Alt"),
    key: key.length === 1 ? key.toLowerCase() : key,
  };
}

/** One normal form per chord (for conflict detection). @param {string} keys */
export function chordId(keys) {
  const c = parseChord(keys);
  return `${c.mod ? "M" : ""}${c.alt ? "A" : ""}${c.shift ? "S" : ""}:${c.key}`;
}

/**
 * Whether a keydown is chord `keys`. A printable symbol such as `?` is matched by the
 * character (its Shift depends on the keyboard layout).
 * @param {KeyLike} e
 * @param {string} keys
 * @param {boolean} mac
 */
export function matchesChord(e, keys, mac) {
  const c = parseChord(keys);
  const mod = mac ? e.metaKey : e.ctrlKey;
  const other = mac ? e.ctrlKey : e.metaKey;
  if (mod !== c.mod || other || e.altKey !== c.alt) return false;
  const symbol = c.key.length === 1 && !/[a-z0-9]/.test(c.key);
  if (!symbol && e.shiftKey !== c.shift) return false;
  const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  return k === c.key;
}

/**
 * Which registered shortcut a keydown is, if any.
 * @param {KeyLike} e
 * @param {{editable: boolean, mac: boolean}} where `editable`: focus is in a text field
 * @param {Shortcut[]} [list]
 * @returns {string|null} the shortcut's id
 */
export function shortcutFor(e, where, list = SHORTCUTS) {
  for (const s of list) {
    if (where.editable && !s.inEditable) continue;
    if (matchesChord(e, s.keys, where.mac)) return s.id;
  }
  return null;
}

/**
 * Pairs of shortcuts bound to the same chord.
 * @param {Shortcut[]} list
 * @returns {[string, string][]}
 */
export function conflictsOf(list) {
  /** @type {Map<string, string>} */
  const seen = new Map();
  /** @type {[string, string][]} */
  const out = [];
  for (const s of list) {
    const k = chordId(s.keys);
    const was = seen.get(k);
    if (was) out.push([was, s.id]);
    else seen.set(k, s.id);
  }
  return out;
}

const ARROWS = /** @type {Record<string, string>} */ ({
  ArrowUp: "↑",
  ArrowDown: "↓",
  ArrowLeft: "←",
  ArrowRight: "→",
});

/**
 * The keys of a chord as shown (one label per key): ⌘ ⇧ P on macOS, Ctrl Shift P
 * elsewhere.
 * @param {string} keys
 * @param {boolean} mac
 * @returns {string[]}
 */
export function chordLabels(keys, mac) {
  const c = parseChord(keys);
  const out = [];
  if (c.mod) out.push(mac ? "⌘" : "Ctrl");
  if (c.alt) out.push(mac ? "⌥" : "Alt");
  if (c.shift) out.push(mac ? "⇧" : "Shift");
  out.push(ARROWS[c.key] ?? (c.key.length === 1 ? c.key.toUpperCase() : c.key));
  return out;
}

/** Keys a chord may end with: letters, digits, a few symbols, arrows, F1–F12. */
const CHORD_KEY = /^([a-z0-9]|[/?.,;'\[\]\\=`-]|Arrow(Up|Down|Left|Right)|F([1-9]|1[0-2]))$/;
/** Chords the browser or text editing own (copy, paste, undo, close tab …). */
const RESERVED = new Set([
  "M:a",
  "M:c",
  "M:v",
  "M:x",
  "M:z",
  "M:y",
  "M:w",
  "M:t",
  "M:n",
  "M:q",
  "M:r",
  "M:l",
  "MS:z",
  "MS:t",
  "MS:n",
  "MS:w",
]);

/**
 * The chord a keydown makes, for rebinding; null while only modifiers are held or for
 * a key no chord may use.
 * @param {KeyLike} e
 * @param {boolean} mac
 * @returns {string|null} e.g. "Mod+Shift+P"
 */
export function chordOfEvent(e, mac) {
  if (["Control", "Meta", "Alt", "Shift", "Dead", "Unidentified"].includes(e.key)) return null;
  const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (!CHORD_KEY.test(k)) return null;
  const mod = mac ? e.metaKey : e.ctrlKey;
  if ((mac ? e.ctrlKey : e.metaKey)) return null; // the other platform's modifier: not portable
  const symbol = k.length === 1 && !/[a-z0-9]/.test(k);
  const parts = [];
  if (mod) parts.push("Mod");
  if (e.altKey) parts.push("Alt");
  if (e.shiftKey && !symbol) parts.push("Shift");
  parts.push(k.length === 1 ? k.toUpperCase() : k);
  return parts.join("+");
}

/**
 * Why shortcut `id` may not be bound to `keys` in `list`, or null when it may.
 * @param {Shortcut[]} list the effective registry
 * @param {string} id
 * @param {string} keys
 * @returns {{code: "fixed"|"invalid"|"needsModifier"|"reserved"|"conflict", with?: string}|null}
 */
export function bindingProblem(list, id, keys) {
  const s = list.find((x) => x.id === id);
  if (!s || s.fixed) return { code: "fixed" };
  const c = parseChord(keys);
  if (
    !CHORD_KEY.test(c.key) ||
    keys.split("+").some((p, i, a) => i < a.length - 1 && !["Mod", "Alt", "Shift"].includes(p))
  ) return { code: "invalid" };
  // Without Ctrl/Cmd or Alt a chord is typed text (or a page key such as arrows).
  if (!c.mod && !c.alt && (s.inEditable || /^[a-z0-9]$/.test(c.key) || c.key.startsWith("Arrow"))) {
    return { code: "needsModifier" };
  }
  const norm = chordId(keys);
  if (RESERVED.has(norm)) return { code: "reserved" };
  const other = list.find((x) => x.id !== id && chordId(x.keys) === norm);
  return other ? { code: "conflict", with: other.id } : null;
}

/**
 * The registry with the user's bindings applied. Bindings that are unknown, for a
 * fixed shortcut, or invalid are ignored (and reported), never applied.
 * @param {unknown} saved parsed from storage
 * @param {Shortcut[]} [base]
 * @returns {{list: Shortcut[], ignored: string[]}}
 */
export function applyBindings(saved, base = SHORTCUTS) {
  /** @type {Shortcut[]} */
  let list = base.map((s) => ({ ...s }));
  /** @type {string[]} */
  const ignored = [];
  if (!saved || typeof saved !== "object" || Array.isArray(saved)) {
    return { list, ignored: saved == null ? [] : ["*"] };
  }
  for (const [id, keys] of Object.entries(saved)) {
    if (typeof keys !== "string" || keys.length > 40 || bindingProblem(list, id, keys)) {
      ignored.push(id);
      continue;
    }
    list = list.map((s) => (s.id === id ? { ...s, keys } : s));
  }
  return { list, ignored };
}
