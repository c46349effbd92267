/**
 * Full-text search across tasks over an FTS5 trigram index (migration 6).
 *
 * `search_doc` maps one indexed entry (a user or assistant message) to an FTS row;
 * `search_fts` holds the entry's text (its `text` parts joined by newlines; snippets
 * are cut from its plain text, {@link plainMarkdown}, matches still marked). Entries
 * are indexed when they are persisted in a final state (never per streamed delta);
 * deleting a message (or its task, by cascade) removes its document by trigger.
 *
 * @example
 * const search = new SearchRepo(db);
 * search.query("parser");  // titles first, then full text, snippets marked
 */
import { inSavepoint } from "./savepoint.ts";
import type { DatabaseSync } from "node:sqlite";
import type { Entry, Part } from "../protocol/index.ts";
import { plainMarkdown } from "./plain_text.ts";
import {
  SEARCH_LIMITS,
  type SearchResult,
  type SearchSnippet,
  type SearchTaskHit,
  type SearchWindow,
} from "../protocol/search.ts";

const INDEXED_ROLES = new Set(["user", "assistant"]);

/** The text an entry contributes to the index ("" = nothing to index). */
export function entrySearchText(entry: Pick<Entry, "role" | "parts">): string {
  if (!INDEXED_ROLES.has(entry.role)) return "";
  return entry.parts
    .filter((p) => p.type === "text" && typeof p.text === "string" && p.text !== "")
    .map((p) => p.text)
    .join("\n");
}

/** (Re)indexes one entry; removes it from the index when it has no text. */
export function indexEntry(
  db: DatabaseSync,
  entry: Pick<Entry, "id" | "taskId" | "role" | "parts">,
): void {
  const text = entrySearchText(entry);
  const doc = db.prepare("SELECT id FROM search_doc WHERE message_id = ?").get(entry.id) as
    | { id: number }
    | undefined;
  if (!text) {
    if (doc) db.prepare("DELETE FROM search_doc WHERE id = ?").run(doc.id);
    return;
  }
  let rowid: number;
  if (doc) {
    rowid = doc.id;
    db.prepare("DELETE FROM search_fts WHERE rowid = ?").run(rowid);
  } else {
    const r = db.prepare("INSERT INTO search_doc (message_id, task_id) VALUES (?, ?)").run(
      entry.id,
      entry.taskId,
    );
    rowid = Number(r.lastInsertRowid);
  }
  db.prepare("INSERT INTO search_fts (rowid, body) VALUES (?, ?)").run(rowid, text);
}

/** Entries waiting to be indexed before this many are batched into one transaction. */
export const INDEX_BATCH = 32;

/**
 * Batches index updates: one FTS5 write per entry costs ~9 pages of WAL per commit,
 * so finished entries are queued and written together — when {@link INDEX_BATCH} are
 * waiting, and always before a search reads the index (so results are never stale).
 * Entries a previous process finished but never indexed (it exited with a queue) are
 * caught up before the first search of a process.
 */
export class SearchIndexQueue {
  private pending = new Map<string, Pick<Entry, "id" | "taskId" | "role" | "parts">>();
  private caughtUp = false;

  constructor(private db: DatabaseSync) {}

  /** Queues a final entry (tool and other entries are never indexed). */
  add(entry: Pick<Entry, "id" | "taskId" | "role" | "parts">): void {
    if (!INDEXED_ROLES.has(entry.role)) return;
    this.pending.set(entry.id, {
      id: entry.id,
      taskId: entry.taskId,
      role: entry.role,
      parts: entry.parts.filter((p) => p.type === "text").map((p) => ({ ...p })),
    });
    if (this.pending.size >= INDEX_BATCH) this.flush();
  }

  /** Writes the queued entries (skipping those deleted meanwhile) in one transaction. */
  flush(): void {
    if (!this.caughtUp) {
      this.caughtUp = true;
      this.catchUp();
    }
    if (this.pending.size === 0) return;
    const list = [...this.pending.values()];
    this.pending.clear();
    const exists = this.db.prepare("SELECT 1 AS x FROM message WHERE id = ?");
    inSavepoint(this.db, "search_index", () => {
      for (const e of list) if (exists.get(e.id)) indexEntry(this.db, e);
    });
  }

  /** Indexes final user/assistant entries with text that have no document yet. */
  private catchUp(): void {
    const missing = this.db.prepare(
      `SELECT m.id, m.task_id FROM message m
       WHERE m.role IN ('user', 'assistant') AND m.status <> 'streaming'
         AND NOT EXISTS (SELECT 1 FROM search_doc d WHERE d.message_id = m.id)
         AND EXISTS (SELECT 1 FROM part p WHERE p.message_id = m.id AND p.type = 'text' AND p.text <> '')`,
    ).all() as { id: string; task_id: string }[];
    if (missing.length === 0) return;
    const parts = this.db.prepare(
      "SELECT type, text FROM part WHERE message_id = ? ORDER BY idx",
    );
    for (const m of missing) {
      if (this.pending.has(m.id)) continue;
      const ps = parts.all(m.id) as { type: string; text: string | null }[];
      this.pending.set(m.id, {
        id: m.id,
        taskId: m.task_id,
        role: "user", // any indexed role: only the text matters
        parts: ps.map((p) => ({ type: p.type as Part["type"], text: p.text ?? undefined })),
      });
    }
  }
}

/** Quotes a query as one FTS5 phrase: syntax characters lose their meaning. */
export function ftsPhrase(q: string): string {
  return `"${q.replaceAll('"', '""')}"`;
}

/** Escapes `%`, `_` and `\` for `LIKE … ESCAPE '\'`. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const squash = (s: string) => s.replace(/\s+/g, " ");

/** Moves a cut that would split a surrogate pair outwards. */
function safeStart(s: string, i: number): number {
  if (i > 0 && i < s.length && /[\uDC00-\uDFFF]/.test(s[i])) return i - 1;
  return Math.max(0, i);
}
function safeEnd(s: string, i: number): number {
  if (i > 0 && i < s.length && /[\uDC00-\uDFFF]/.test(s[i])) return i + 1;
  return Math.min(s.length, i);
}

/**
 * The window of `text` around the first case-insensitive match of `q`, with
 * `context` characters on each side ("…" marks a cut). Null when `q` is not found.
 */
export function matchWindow(
  text: string,
  q: string,
  context: number = SEARCH_LIMITS.snippetContext,
): SearchWindow | null {
  if (!q) return null;
  const m = new RegExp(escapeRe(q), "iu").exec(text);
  if (!m) return null;
  const start = m.index, end = m.index + m[0].length;
  const from = safeStart(text, start - context);
  const to = safeEnd(text, end + context);
  return {
    before: (from > 0 ? "…" : "") + squash(text.slice(from, start)).trimStart(),
    match: m[0],
    after: squash(text.slice(end, to)).trimEnd() + (to < text.length ? "…" : ""),
  };
}

interface TaskRow {
  id: string;
  title: string;
  project_path: string | null;
  updated_at: number;
}
interface HitRow {
  task_id: string;
  message_id: string;
  role: string;
  pos: number;
  body: string;
  r: number;
}

export class SearchRepo {
  constructor(private db: DatabaseSync) {}

  /** Indexes an entry now (see {@link indexEntry}). */
  index(entry: Pick<Entry, "id" | "taskId" | "role" | "parts">): void {
    indexEntry(this.db, entry);
  }

  /** Number of indexed entries (for tests and diagnostics). */
  size(): number {
    return (this.db.prepare("SELECT count(*) AS n FROM search_doc").get() as { n: number }).n;
  }

  /**
   * Titles first (most recent first), then tasks whose entries match (best rank
   * first). An empty query lists the most recent tasks.
   */
  query(raw: string): SearchResult {
    const q = raw.trim();
    const L = SEARCH_LIMITS;
    if (!q) {
      const rows = this.db.prepare(
        `SELECT id, title, project_path, updated_at FROM task
         ORDER BY pinned DESC, updated_at DESC LIMIT ?`,
      ).all(L.tasks) as unknown as TaskRow[];
      return { q, mode: "recent", tasks: rows.map((r) => taskHit(r, null, [], 0)) };
    }
    const mode = [...q].length < L.ftsMinChars ? "like" : "fts";
    const where = mode === "fts" ? "search_fts MATCH ?" : "f.body LIKE ? ESCAPE '\\'";
    const arg = mode === "fts" ? ftsPhrase(q) : likePattern(q);
    const rank = mode === "fts" ? "bm25(search_fts)" : "0";

    const titled = this.db.prepare(
      `SELECT id, title, project_path, updated_at FROM task WHERE title LIKE ? ESCAPE '\\'
       ORDER BY updated_at DESC LIMIT ?`,
    ).all(likePattern(q), L.tasks) as unknown as TaskRow[];
    // Tasks ranked by their best-matching entry (FTS) or recency (LIKE).
    const ranked = this.db.prepare(
      `WITH hits AS MATERIALIZED (
         SELECT d.task_id, ${rank} AS r FROM search_fts f JOIN search_doc d ON d.id = f.rowid
         WHERE ${where}
       )
       SELECT t.id, t.title, t.project_path, t.updated_at, MIN(h.r) AS best, count(*) AS n
       FROM hits h JOIN task t ON t.id = h.task_id
       GROUP BY t.id ORDER BY best, t.updated_at DESC LIMIT ?`,
    ).all(arg, L.tasks * 2) as unknown as (TaskRow & { n: number })[];

    const order: TaskRow[] = [];
    const seen = new Set<string>();
    for (const r of [...titled, ...ranked]) {
      if (seen.has(r.id) || order.length >= L.tasks) continue;
      seen.add(r.id);
      order.push(r);
    }
    const counts = new Map(ranked.map((r) => [r.id, r.n]));
    const snippets = this.snippets(order.map((r) => r.id), where, arg, rank, q);
    return {
      q,
      mode,
      tasks: order.map((r) =>
        taskHit(
          r,
          matchWindow(r.title, q, 1000),
          snippets.get(r.id) ?? [],
          counts.get(r.id) ?? this.countHits(r.id, where, arg),
        )
      ),
    };
  }

  /** Up to N best snippets per task, in timeline order. */
  private snippets(
    taskIds: string[],
    where: string,
    arg: string,
    rank: string,
    q: string,
  ): Map<string, SearchSnippet[]> {
    const out = new Map<string, SearchSnippet[]>();
    if (taskIds.length === 0) return out;
    const marks = taskIds.map(() => "?").join(",");
    const rows = this.db.prepare(
      `WITH hits AS MATERIALIZED (
         SELECT d.task_id, d.message_id, f.body, ${rank} AS r FROM search_fts f
         JOIN search_doc d ON d.id = f.rowid
         WHERE ${where} AND d.task_id IN (${marks})
       ), numbered AS (
         SELECT h.*, m.role, m.pos,
           ROW_NUMBER() OVER (PARTITION BY h.task_id ORDER BY h.r, m.pos DESC) AS rn
         FROM hits h JOIN message m ON m.id = h.message_id
       )
       SELECT task_id, message_id, role, pos, body, r FROM numbered WHERE rn <= ?
       ORDER BY task_id, pos`,
    ).all(arg, ...taskIds, SEARCH_LIMITS.snippetsPerTask) as unknown as HitRow[];
    for (const h of rows) {
      // Snippets show the text as read (no `**`, backticks, link targets…); a query that
      // only matches the Markdown source (e.g. "**") falls back to the source.
      const plain = plainMarkdown(h.body);
      const w = matchWindow(plain, q) ?? matchWindow(h.body, q) ??
        { before: "", match: "", after: squash(plain.slice(0, 2 * SEARCH_LIMITS.snippetContext)) };
      const list = out.get(h.task_id) ?? [];
      list.push({ entryId: h.message_id, role: h.role as SearchSnippet["role"], pos: h.pos, ...w });
      out.set(h.task_id, list);
    }
    return out;
  }

  private countHits(taskId: string, where: string, arg: string): number {
    const r = this.db.prepare(
      `SELECT count(*) AS n FROM search_fts f JOIN search_doc d ON d.id = f.rowid
       WHERE ${where} AND d.task_id = ?`,
    ).get(arg, taskId) as { n: number };
    return r.n;
  }
}

function taskHit(
  r: TaskRow,
  titleMatch: SearchWindow | null,
  snippets: SearchSnippet[],
  hits: number,
): SearchTaskHit {
  return {
    taskId: r.id,
    title: r.title,
    projectPath: r.project_path,
    updatedAt: r.updated_at,
    titleMatch,
    snippets,
    hits,
  };
}
