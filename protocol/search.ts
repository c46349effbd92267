/**
 * Protocol ops for Search across tasks (FTS5), session stats and context usage.
 * Merged into `OP_ARGS` by `protocol.ts`; the UI imports it through `protocol.ts`.
 *
 * - `search.query {q}`: task titles first, then full text of user and assistant
 *   entries; ≤ {@link SEARCH_LIMITS.tasks} tasks, ≤ {@link SEARCH_LIMITS.snippetsPerTask}
 *   snippets each; an empty query lists recent tasks.
 * - `task.contextBreakdown {id, category?}`: what the next request of the task would
 *   contain, by category, estimated by characters; with `category` also its exact text.
 */
import { obj, oneOf, type Schema, str } from "./schema.ts";

export const SEARCH_LIMITS = {
  /** Longest accepted query (characters). */
  queryChars: 200,
  /** Tasks in one answer. */
  tasks: 20,
  /** Snippets per task. */
  snippetsPerTask: 5,
  /** Characters of context on each side of a match in a snippet. */
  snippetContext: 40,
  /** Queries shorter than this (in characters) use LIKE: trigrams need 3. */
  ftsMinChars: 3,
} as const;

/** Categories of the context breakdown. */
export const CONTEXT_CATEGORIES = [
  "messages",
  "system",
  "tools",
  "user",
  "skills",
  "mcp",
] as const;
export type ContextCategory = typeof CONTEXT_CATEGORIES[number];

const TASK_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const SEARCH_OP_ARGS = {
  "search.query": obj({ q: str({ max: SEARCH_LIMITS.queryChars }) }),
  "task.contextBreakdown": obj({
    id: str({ min: 1, max: 64, pattern: TASK_ID }),
    "category?": oneOf(CONTEXT_CATEGORIES),
  }),
} satisfies Record<string, Schema>;

/** Text around one match: `before` + `match` + `after` (whitespace collapsed). */
export interface SearchWindow {
  before: string;
  match: string;
  after: string;
}

export interface SearchSnippet extends SearchWindow {
  entryId: string;
  role: "user" | "assistant";
  pos: number;
}

export interface SearchTaskHit {
  taskId: string;
  title: string;
  projectPath: string | null;
  updatedAt: number;
  /** The title with its match marked, when the title matched. */
  titleMatch: SearchWindow | null;
  /** Matching entries (in timeline order), at most `SEARCH_LIMITS.snippetsPerTask`. */
  snippets: SearchSnippet[];
  /** Matching entries in this task in total (may exceed `snippets.length`). */
  hits: number;
}

export interface SearchResult {
  q: string;
  /** `recent`: empty query; `fts`: FTS5 trigram index; `like`: 1–2 character query. */
  mode: "recent" | "fts" | "like";
  tasks: SearchTaskHit[];
}

export interface ContextCategoryInfo {
  key: ContextCategory;
  /** Characters of the category's text. */
  chars: number;
  /** Estimated tokens (non-CJK chars ÷ 4, CJK chars × 2 ÷ 3). */
  tokens: number;
  /** Items in it (messages, tools, files …); 0 when empty. */
  items: number;
}

export interface ContextBreakdown {
  taskId: string;
  /** `provider/model` of the next request; null when the model cannot be resolved. */
  model: string | null;
  /** The model's declared context window; null when unknown. */
  contextWindow: number | null;
  categories: ContextCategoryInfo[];
  totalTokens: number;
  /** Present when `category` was asked for: its exact text. */
  text?: { key: ContextCategory; text: string; format: "markdown" | "json" | "text" };
  /**
   * When the task compacts by itself: at `watermark` prompt tokens (0.7 × (window − max
   * output)); `windowKnown` false = the model declares no window and 128K is assumed.
   * Null when the model cannot be resolved.
   */
  compaction: { watermark: number; window: number; windowKnown: boolean } | null;
}

export interface SearchOpResults {
  "search.query": SearchResult;
  "task.contextBreakdown": ContextBreakdown;
}

/**
 * CJK characters (Han, kana, Hangul, CJK punctuation, full-width forms): one token
 * covers fewer of them than of Latin text.
 */
const CJK_RE =
  /[\u1100-\u11ff\u2e80-\u2fdf\u3000-\u30ff\u3130-\u318f\u31f0-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]|[\ud840-\ud87f][\udc00-\udfff]/g;

/** Number of CJK characters in `text` (see {@link estimateTokens}). */
export function countCjk(text: string): number {
  return text.match(CJK_RE)?.length ?? 0;
}

/**
 * Estimated tokens of a text, by characters: CJK characters × 2 ÷ 3, every other
 * character ÷ 4, rounded (the estimate the seed's context panel uses).
 *
 * @example
 * estimateTokens("abcdefgh"); // 2
 * estimateTokens("上下文"); // 2
 */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  const cjk = countCjk(text);
  const cjkUnits = text.match(/[\ud840-\ud87f][\udc00-\udfff]/g)?.length ?? 0; // 2 UTF-16 units
  const other = text.length - cjk - cjkUnits;
  return Math.round((cjk * 2) / 3 + other / 4);
}
