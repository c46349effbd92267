/**
 * SQLite's failures a user can act on, in plain words. Every one means the change was
 * not saved (SQLite rolls the statement back) and nothing already saved was touched.
 */

/** SQLite's primary result codes (the low byte of an extended code). */
const SQLITE_BUSY = 5;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;

/** A user-facing message for a storage failure, or null when `e` is something else. */
export function describeStoreError(e: unknown): string | null {
  const err = e as { code?: unknown; errcode?: unknown; message?: unknown };
  if (err?.code !== "ERR_SQLITE_ERROR" || typeof err.errcode !== "number") return null;
  const detail = typeof err.message === "string" ? err.message : "";
  switch (err.errcode & 0xff) {
    case SQLITE_FULL:
      return "the disk holding the data folder is full: nothing was saved (free some space and try again)";
    case SQLITE_READONLY:
      return "the data folder cannot be written (read-only): nothing was saved";
    case SQLITE_BUSY:
      return "the database is locked by another program: nothing was saved (close it and try again)";
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
      return `the disk failed while saving (${detail}): nothing was saved`;
    default:
      return null;
  }
}
