/**
 * `@` mentions of a message, resolved when it is sent: each mentioned file
 * (first 32 KB) or folder (a short listing) of the workspace becomes a `file` part with
 * `data.mention`, whose text the model receives as a context block (history.ts). The
 * content is read once, at send time, so the conversation does not change later.
 *
 * Rules: `@word` that names nothing in the workspace stays plain text (`@bob`); a
 * mention that leaves the workspace (`@/etc/passwd`, `@../x`, `@~/.ssh`, a link
 * leading out) or enters ReinAgent's data folder or a protected folder is refused with
 * a clear error, and nothing is sent. `@server:uri` of a configured MCP server (or any
 * `@name:scheme://…`) is that server's resource, read now (resource_mentions.ts); one
 * that cannot be read is refused the same way. At most 8 distinct mentions per message.
 */
import { join, relative } from "../../lib/path.ts";
import type { Attachment, MentionData, Part } from "../../protocol/index.ts";
import { extractMentions, MENTION_LIMITS, resourceMention } from "../../protocol/index.ts";
import { type McpResourceReader, resourceParts } from "./resource_mentions.ts";
import { hiddenBelow, hiddenPath, isInside, outsideRoots, resolvePath } from "../../tools/paths.ts";
import { OpError } from "../errors.ts";

/** Reads at most `cap` bytes of a file (and says whether there was more). */
async function readHead(abs: string, cap: number): Promise<{ bytes: Uint8Array; more: boolean }> {
  const f = await Deno.open(abs, { read: true });
  try {
    const buf = new Uint8Array(cap + 1);
    let got = 0;
    while (got < buf.length) {
      const n = await f.read(buf.subarray(got));
      if (n === null) break;
      got += n;
    }
    return { bytes: buf.subarray(0, Math.min(got, cap)), more: got > cap };
  } finally {
    f.close();
  }
}

/** UTF-8 text of `bytes` (a cut multi-byte character at the end is dropped), or null. */
function asText(bytes: Uint8Array, cut: boolean): string | null {
  if (bytes.subarray(0, 8192).includes(0)) return null;
  let end = bytes.length;
  if (cut) {
    // Back off to the start of the last character, then drop it if incomplete.
    let i = end - 1;
    while (i > 0 && end - i < 4 && (bytes[i] & 0xc0) === 0x80) i--;
    const lead = bytes[i];
    const len = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (i + len > end) end = i;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, end));
  } catch {
    return null;
  }
}

async function folderListing(
  abs: string,
  hidden: readonly string[],
): Promise<{ text: string; count: number; more: boolean }> {
  const skip = hiddenBelow(abs, hidden);
  const all: { name: string; dir: boolean }[] = [];
  for await (const e of Deno.readDir(abs)) {
    if (skip.has(join(abs, e.name))) continue;
    all.push({ name: e.name, dir: e.isDirectory });
  }
  all.sort((a, b) => a.dir !== b.dir ? (a.dir ? -1 : 1) : a.name < b.name ? -1 : 1);
  const shown = all.slice(0, MENTION_LIMITS.dirEntries);
  const lines = shown.map((e) => e.dir ? `${e.name}/` : e.name);
  if (all.length > shown.length) lines.push(`… ${all.length - shown.length} more`);
  return { text: lines.join("\n"), count: all.length, more: all.length > shown.length };
}

/** Where MCP resource mentions are read (absent: `@server:uri` is refused). */
export interface ResourceSource {
  reader: McpResourceReader | null;
  home: string;
}

const tooMany = () =>
  new OpError(
    "too_large",
    `at most ${MENTION_LIMITS.files} files, folders or resources can be mentioned in one message`,
  );

/**
 * The `file` parts for the mentions in `text` (none: `[]`), and the images MCP resources
 * brought (uploads the caller attaches). Throws `invalid_args` (nothing is sent) for a
 * mention outside the workspace or into a hidden folder or a resource that cannot be
 * read, and `too_large` for more than {@link MENTION_LIMITS.files} mentions.
 */
export async function resolveMentions(
  text: string,
  workspace: string,
  hidden: readonly string[],
  resources?: ResourceSource,
): Promise<{ parts: Part[]; images: Attachment[] }> {
  const seen = new Set<string>();
  const parts: Part[] = [];
  const images: Attachment[] = [];
  for (const token of extractMentions(text)) {
    const res = resourceMention(token.path);
    if (res && (resources?.reader?.hasServer(res.server) || res.uri.includes("://"))) {
      if (seen.has(token.path)) continue;
      seen.add(token.path);
      if (!resources?.reader) {
        throw new OpError("invalid_args", `@${token.path}: MCP resources cannot be read here`);
      }
      if (parts.length >= MENTION_LIMITS.files) throw tooMany();
      const got = await resourceParts(resources.reader, resources.home, res.server, res.uri);
      parts.push(got.part);
      if (got.image) images.push(got.image);
      continue;
    }
    const abs = resolvePath(token.path, workspace);
    if (seen.has(abs)) continue;
    seen.add(abs);
    if (!isInside(abs, workspace)) {
      throw new OpError(
        "invalid_args",
        `@${token.path} is outside the workspace ${workspace}: only its files and folders can be mentioned`,
      );
    }
    const st = await Deno.lstat(abs).catch(() => null);
    if (!st) continue; // names nothing: an ordinary word such as @bob
    const out = outsideRoots(abs, [workspace]);
    if (out) {
      throw new OpError(
        "invalid_args",
        `@${token.path} leads outside the workspace (a symbolic link): it cannot be mentioned`,
      );
    }
    if (hiddenPath(abs, hidden, [workspace])) {
      throw new OpError(
        "invalid_args",
        `@${token.path} is inside ReinAgent's data folder or a protected folder: it cannot be mentioned`,
      );
    }
    if (parts.length >= MENTION_LIMITS.files) throw tooMany();
    parts.push(await mentionPart(abs, workspace, hidden));
  }
  return { parts, images };
}

async function mentionPart(abs: string, workspace: string, hidden: readonly string[]) {
  const rel = relative(workspace, abs) || ".";
  const st = await Deno.stat(abs);
  if (st.isDirectory) {
    const list = await folderListing(abs, hidden);
    const data: MentionData = {
      mention: true,
      path: rel === "." ? "./" : `${rel}/`,
      kind: "dir",
      size: list.count,
      truncated: list.more,
    };
    return { type: "file", text: list.text, data: { ...data } } satisfies Part;
  }
  const data: MentionData = {
    mention: true,
    path: rel,
    kind: "file",
    size: st.size,
    truncated: false,
  };
  try {
    const { bytes, more } = await readHead(abs, MENTION_LIMITS.fileBytes);
    const text = asText(bytes, more);
    if (text === null) return { type: "file", data: { ...data, note: "binary" } } satisfies Part;
    return { type: "file", text, data: { ...data, truncated: more } } satisfies Part;
  } catch {
    return { type: "file", data: { ...data, note: "unreadable" } } satisfies Part;
  }
}
