/**
 * `@` mentions: `@path` or `@"path with spaces"` in a message names a
 * file or folder of the workspace. Pure: the UI uses it for the picker and the chips,
 * the server to attach what the mentions name when the message is sent.
 *
 * - A mention starts at the beginning of the text or after a blank or an opening
 *   bracket, so `me@example.com` is not one; trailing punctuation (`.,;:!?`) ends it.
 * - `files.mention {id? | projectPath?, q}`: up to 50 files and folders of the
 *   workspace matching `q` fuzzily (skipping .git, node_modules and ReinAgent's data),
 *   and the resources (and resource templates) of the connected MCP servers.
 * - An MCP resource is mentioned as `@server:uri` (`@docs:memo://today`): the server's
 *   id, a colon, then the resource's URI, which has a scheme of its own.
 *
 * @example
 * extractMentions('look at @src/a.ts and @"my notes.md".');
 * // [{path: "src/a.ts", start: 8, end: 17}, {path: "my notes.md", start: 22, end: 36}]
 */
import { nullable, obj, type Schema, str } from "./schema.ts";

export const MENTION_LIMITS = {
  /** Files and folders attached from one message. */
  files: 8,
  /** Bytes of one file attached (the rest is cut with a note). */
  fileBytes: 32 * 1024,
  /** Entries listed for a mentioned folder. */
  dirEntries: 100,
  /** Results of one picker query. */
  results: 50,
  /** Longest picker query. */
  queryChars: 300,
  /** Picker rows kept for MCP resources, so a big workspace's files do not hide them. */
  resourceRows: 12,
  /** Bytes of an image a resource is attached as (larger ones become a note). */
  resourceImageBytes: 3_750_000,
} as const;

export interface MentionToken {
  /** The path as written (without `@`, quotes, or trailing punctuation). */
  path: string;
  /** Offsets of the whole token (`@…`) in the text; `end` is exclusive. */
  start: number;
  end: number;
}

/**
 * One picker result: a path relative to the workspace (folders end with `/`), or an MCP
 * server's resource, whose `path` is its token (`server:uri`).
 */
export type MentionItem = { path: string; type: "file" | "dir" } | ResourceMentionItem;

/** A resource (or a resource template, whose URI has `{placeholders}`) of an MCP server. */
export interface ResourceMentionItem {
  /** `server:uri`, what the token holds. */
  path: string;
  type: "resource";
  server: string;
  uri: string;
  /** The server's title or name for it (hostile text: shown as text, bounded). */
  name: string;
  mimeType?: string;
  description?: string;
  /** A URI template: picking it inserts the part before the first `{` to be completed. */
  template?: boolean;
}

/** `data` of the `file` part a mention became (its `text` is what the model reads). */
export interface MentionData {
  mention: true;
  /**
   * Relative to the workspace, as the user wrote it resolved (folders end with `/`); for
   * a resource its token, `server:uri`.
   */
  path: string;
  kind: "file" | "dir" | "resource";
  size: number;
  /** The file was longer than the cap, or the folder had more entries. */
  truncated: boolean;
  /**
   * Not inlined: a binary or unreadable file; for a resource, `image` (attached as an
   * image part beside it) or `binary` (described only).
   */
  note?: "binary" | "unreadable" | "image";
  /** A resource's server id, URI and type. */
  server?: string;
  uri?: string;
  mimeType?: string;
}

const RESOURCE_TOKEN_RE = /^([A-Za-z0-9][A-Za-z0-9_-]{0,47}):([A-Za-z][A-Za-z0-9+.-]*:.+)$/s;

/**
 * The MCP server and URI a mention names, when it has the form `server:scheme:…`
 * (`docs:memo://today`); null for anything else (a path). Whether `server` is one
 * is for the caller to know.
 */
export function resourceMention(path: string): { server: string; uri: string } | null {
  const m = RESOURCE_TOKEN_RE.exec(path);
  return m ? { server: m[1], uri: m[2] } : null;
}

const MENTION_RE = /(^|[\s([{])@(?:"([^"\n]+)"|([^\s"'`()<>[\]{}]+))/g;

/** Every mention token of `text`, in order (duplicates included). */
export function extractMentions(text: string): MentionToken[] {
  const out: MentionToken[] = [];
  for (const m of text.matchAll(MENTION_RE)) {
    const start = m.index! + m[1].length;
    if (m[2] !== undefined) {
      out.push({ path: m[2], start, end: start + m[2].length + 3 });
      continue;
    }
    const path = m[3].replace(/[.,;:!?]+$/, "");
    if (path) out.push({ path, start, end: start + 1 + path.length });
  }
  return out;
}

/**
 * The picker's query when the caret ends a mention being typed (`"see @src/a|"` →
 * `{start: 4, query: "src/a"}`); null otherwise.
 */
export function mentionQuery(
  text: string,
  caret: number,
): { start: number; query: string } | null {
  const head = text.slice(0, caret);
  const m = /(^|[\s([{])@("[^"\n]*|[^\s"'`()<>[\]{}]*)$/.exec(head);
  if (!m) return null;
  const start = m.index + m[1].length;
  return { start, query: m[2].replace(/^"/, "") };
}

/**
 * The token for `path`: quoted when it has blanks, quotes or brackets, or ends with
 * punctuation an unquoted token would lose (a URI ending in `?`).
 */
export function formatMention(path: string): string {
  return /[\s"'`()<>[\]{}]|[.,;:!?]$/.test(path) ? `@"${path.replace(/"/g, "")}"` : `@${path}`;
}

const taskId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });

export const MENTION_OP_ARGS = {
  "files.mention": obj({
    "id?": taskId,
    "projectPath?": nullable(str({ min: 1, max: 4096 })),
    q: str({ max: MENTION_LIMITS.queryChars }),
  }),
} satisfies Record<string, Schema>;

export interface MentionOpResults {
  /** `pending`: MCP servers are still connecting; asking again soon may list their resources. */
  "files.mention": { items: MentionItem[]; truncated: boolean; pending?: boolean };
}
