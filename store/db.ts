/**
 * Opens the SQLite database (`node:sqlite`, WAL, busy_timeout) and applies migrations.
 * A file that is not a SQLite database, that SQLite cannot read, or that a newer
 * version created is reported and left byte-for-byte untouched: callers get a
 * `StoreHealth` with the error instead of a database. Nothing but SQLite opens the
 * database's files (see lib/watch.ts for why).
 */

import { DatabaseSync, type StatementSync } from "node:sqlite";
import { MIGRATIONS } from "./migrations.ts";
import type { StoreHealth } from "../protocol/index.ts";
import { isDatabaseOpen, markDatabaseOpen } from "../lib/watch.ts";

export interface OpenResult {
  db: DatabaseSync | null;
  health: StoreHealth;
}

const SQLITE_MAGIC = "SQLite format 3\0";

/**
 * Reads the first bytes to refuse non-SQLite files before SQLite touches them (with a
 * write-ahead log left beside it SQLite would read page one from the log and take any
 * file for a database). Never done for a database this process has open: closing this
 * descriptor would drop the locks SQLite holds on the file.
 */
function headerProblem(path: string): string | null {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    return `cannot open: ${(e as Error).message}`;
  }
  try {
    const buf = new Uint8Array(16);
    const n = file.readSync(buf) ?? 0;
    if (n === 0) return null; // empty file: SQLite treats it as a new database
    const head = new TextDecoder("latin1").decode(buf.subarray(0, n));
    return head === SQLITE_MAGIC ? null : "file is not a SQLite database (bad header)";
  } finally {
    file.close();
  }
}

/** Highest applied migration, or 0 for a fresh database. */
function currentVersion(db: DatabaseSync): number {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
  );
  const row = db.prepare("SELECT MAX(version) AS v FROM schema_version").get() as
    | { v: number | null }
    | undefined;
  return row?.v ?? 0;
}

/** Applies pending migrations, each in its own transaction. */
export function migrate(db: DatabaseSync, now = Date.now()): number {
  const from = currentVersion(db);
  const latest = MIGRATIONS[MIGRATIONS.length - 1].version;
  if (from > latest) {
    throw new Error(
      `database schema version ${from} is newer than this program supports (${latest}); upgrade ReinAgent`,
    );
  }
  for (const m of MIGRATIONS) {
    if (m.version <= from) continue;
    db.exec("BEGIN IMMEDIATE");
    try {
      db.exec(m.sql);
      db.prepare("INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)").run(
        m.version,
        m.name,
        now,
      );
      db.exec("COMMIT");
    } catch (e) {
      db.exec("ROLLBACK");
      throw new Error(`migration ${m.version} (${m.name}) failed: ${(e as Error).message}`);
    }
  }
  return latest;
}

/**
 * Opens (creating when absent) the database at `path`. Never throws for a bad file:
 * the problem is returned in `health` and the file is not modified.
 */
export function openDatabase(path: string): OpenResult {
  let db: DatabaseSync | null = null;
  try {
    if (!isDatabaseOpen(path)) {
      const bad = headerProblem(path);
      if (bad) return { db: null, health: { ok: false, path, error: bad } };
    }
    markDatabaseOpen(path);
    db = new DatabaseSync(path);
    db.exec("PRAGMA busy_timeout = 5000");
    // Checked before anything writes: a damaged or too-new file must not be written to at
    // all (switching to WAL or migrating would modify it). Opening writes nothing, so the
    // check needs no read-only connection of its own (that one cost ~0.5 ms per start).
    if (fileHasContent(path)) checkReadable(db);
    if (Deno.build.os !== "windows") Deno.chmodSync(path, 0o600); // holds API keys
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA foreign_keys = ON");
    migrate(db);
    reusePreparedStatements(db);
    return { db, health: { ok: true, path } };
  } catch (e) {
    try {
      db?.close();
    } catch { /* already reporting the original error */ }
    return { db: null, health: { ok: false, path, error: describeOpenError(e as Error) } };
  }
}

/** SQLite's words for a file that is not a database, made plain for the user. */
function describeOpenError(e: Error): string {
  return /file is not a database/i.test(e.message)
    ? "file is not a SQLite database (bad header)"
    : e.message;
}

/** How many distinct statements stay prepared (the store's SQL is a few hundred texts). */
const STATEMENT_CACHE = 512;

/**
 * Makes `db.prepare` return the statement prepared earlier for the same SQL text: the
 * repositories prepare at each call, and compiling the SQL again cost about a tenth of
 * a turn's own time (a tool call reads a dozen settings). A statement is reset at every
 * `run`/`get`/`all`, and nothing here iterates one lazily, so reuse is safe; SQLite
 * prepares again by itself after a schema change. Oldest dropped past the cap (SQL built
 * from a changing column list would otherwise grow the map).
 */
export function reusePreparedStatements(db: DatabaseSync): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, StatementSync>();
  db.prepare = (sql: string) => {
    let st = cache.get(sql);
    if (!st) {
      st = prepare(sql);
      if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
      cache.set(sql, st);
    }
    return st;
  };
}

function fileHasContent(path: string): boolean {
  try {
    return Deno.statSync(path).size > 0;
  } catch {
    return false;
  }
}

/** Checks, reading only, that the schema is readable and not from a newer version. */
function checkReadable(db: DatabaseSync): void {
  // Reading the schema touches the header and the schema pages; a full
  // integrity_check would cost O(size) at every start.
  db.prepare("SELECT count(*) FROM sqlite_master").get();
  const hasVersion = db.prepare(
    "SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_version'",
  ).get();
  if (!hasVersion) return;
  const row = db.prepare("SELECT MAX(version) AS v FROM schema_version").get() as { v: number };
  const latest = MIGRATIONS[MIGRATIONS.length - 1].version;
  if ((row?.v ?? 0) > latest) {
    throw new Error(
      `database schema version ${row.v} is newer than this program supports (${latest}); upgrade ReinAgent`,
    );
  }
}
