/**
 * What a turn did to the workspace, as the timeline records it (pure shapes; the UI
 * imports them through `protocol.ts`):
 *
 * - {@link TurnChanges} in `meta.changes` of the turn's user entry: per file the NET
 *   change from its state before the turn to its state after it, computed by the
 *   server from the turn's checkpoint when each run of the turn ends (a file created
 *   and then edited is one new file with its final lines). `file.diff {turnId, path}`
 *   gives the same net diff line by line. Per-edit diffs stay on each tool result.
 * - {@link RewindEvent} in `meta.rewind` of a `system` entry with `meta.kind ===
 *   "rewind"`: a rewind that was applied — which turn, what was restored and removed,
 *   who (which client) and when. Turns it rewound get `changes.rewound`.
 */

/** Why a file's net change has no line counts. */
export type ChangeNote = "binary" | "too_large" | "not_kept";

/** One file's net change over a turn. */
export interface TurnFileChange {
  /** Relative to the workspace when inside it. */
  path: string;
  /** Lines added and removed from before the turn to after it (null: see `note`). */
  added: number | null;
  removed: number | null;
  /** It did not exist before the turn. */
  created: boolean;
  /** It does not exist after the turn. */
  deleted: boolean;
  note?: ChangeNote;
  /** Content hashes (sha-256) of the version before and after; null = absent. */
  before: string | null;
  after: string | null;
}

/** Files listed per turn at most; the rest is counted in `more`. */
export const TURN_CHANGES_MAX_FILES = 300;

/** `meta.changes` of a turn's user entry. */
export interface TurnChanges {
  files: TurnFileChange[];
  /** Sums over the files with line counts. */
  added: number;
  removed: number;
  /** Changed files beyond {@link TURN_CHANGES_MAX_FILES}. */
  more: number;
  /** When it was computed (the end of the turn's latest run). */
  at: number;
  /** A rewind put this turn's files back (the rewind entry and its time). */
  rewound?: { entryId: string; at: number };
}

/** Which client did something, as the server saw it (from its User-Agent). */
export interface ClientInfo {
  kind: "desktop" | "phone" | "tablet" | "cli" | "mcp" | "unknown";
  /** e.g. "Chrome", "Safari", "Firefox" ("" when unknown or the CLI); an MCP client's name. */
  browser: string;
  /** e.g. "Linux", "Android", "iOS", "macOS", "Windows" ("" when unknown). */
  os: string;
  /** The address it connected from (absent in-process). */
  ip?: string;
}

/** The client in English words, e.g. "a phone (Chrome, Android)", "the CLI". */
export function clientWords(c: ClientInfo): string {
  const from = c.ip ? ` from ${c.ip}` : "";
  if (c.kind === "cli") return `the CLI${from}`;
  if (c.kind === "mcp") return `an MCP client${c.browser ? ` (${c.browser})` : ""}${from}`;
  const what = c.kind === "unknown" ? "a client" : `a ${c.kind}`;
  const detail = [c.browser, c.os].filter(Boolean).join(", ");
  return `${detail ? `${what} (${detail})` : what}${from}`;
}

/** `meta.rewind` of a rewind entry (`role: "system"`, `meta.kind: "rewind"`). */
export interface RewindEvent {
  /** The user entry the code was rewound to before. */
  turnId: string;
  turnPos: number;
  /** The first line of that message (for a band shown away from it). */
  turnText: string;
  /** Workspace-relative paths put back to their earlier content. */
  restored: string[];
  /** Files the rewound turns had created, deleted again. */
  removed: string[];
  by: ClientInfo;
  at: number;
}

/** "Restored 2 files, removed 1 new file" (the rewind's result in plain words). */
export function rewindResultWords(r: { restored: number; removed: number }): string {
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  const parts = [];
  if (r.restored) parts.push(`restored ${n(r.restored, "file", "files")}`);
  if (r.removed) parts.push(`removed ${n(r.removed, "new file", "new files")}`);
  const s = parts.length ? parts.join(", ") : "nothing to change";
  return s[0].toUpperCase() + s.slice(1);
}

/** The English line of a rewind entry (its text part; the CLI and the API read it). */
export function rewindText(r: RewindEvent): string {
  const what = rewindResultWords({ restored: r.restored.length, removed: r.removed.length });
  return `Code rewound to before “${r.turnText}” by ${clientWords(r.by)}: ${what}.`;
}
