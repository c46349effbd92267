/**
 * An MCP resource a message mentions (`@server:uri`), read when the message is sent and
 * attached like a mentioned file: its text (first 32 KB) becomes a `file` part with
 * `data.mention` and `kind: "resource"`, which the model receives inside a block marked
 * as untrusted data (mention_blocks.ts); an image becomes an attachment (an upload, so
 * vision models see it); other binary content is only described. Nothing in the content
 * is acted on: mentions and commands are read from the user's own text only.
 */
import type { Attachment, MentionData, Part } from "../../protocol/index.ts";
import { MENTION_LIMITS } from "../../protocol/index.ts";
import { fromBase64 } from "../../lib/bytes.ts";
import { OpError } from "../errors.ts";
import { isImageMime, saveUpload } from "./uploads_store.ts";

/** What the composer needs of the MCP client (the manager's `resources`). */
export interface McpResourceReader {
  hasServer(id: string): boolean;
  read(id: string, uri: string, signal?: AbortSignal): Promise<{
    contents: { uri: string; mimeType?: string; text?: string; blob?: string }[];
  }>;
}

/** Contents of one read taken into account (a server may send many). */
const MAX_CONTENTS = 20;

const encoder = new TextEncoder();

/** `text` cut to at most `max` UTF-8 bytes, on a character boundary. */
function cutBytes(text: string, max: number): string {
  if (encoder.encode(text).length <= max) return text;
  let lo = 0, hi = Math.min(text.length, max);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (encoder.encode(text.slice(0, mid)).length <= max) lo = mid;
    else hi = mid - 1;
  }
  // Never end inside a surrogate pair.
  const code = text.charCodeAt(lo - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? lo - 1 : lo);
}

const base64Bytes = (b64: string) => Math.floor(b64.replace(/=+$/, "").length * 3 / 4);

/** The name an image resource is stored under (the URI's last segment, made safe). */
function imageName(uri: string, mime: string): string {
  const last = uri.split(/[/?#]/).filter(Boolean).pop() ?? "resource";
  const base = last.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80) || "resource";
  const ext = mime.split("/")[1]?.replace("jpeg", "jpg") ?? "img";
  return base.includes(".") ? base : `${base}.${ext}`;
}

/**
 * The parts a resource mention becomes: one mention part, and an image attachment when
 * the resource is an image (`image` is then its upload, copied into the workspace by
 * the caller like any attachment). Throws `invalid_args` (nothing is sent) when the
 * server is unknown, off, unreachable, or refuses the URI.
 */
export async function resourceParts(
  reader: McpResourceReader,
  home: string,
  server: string,
  uri: string,
): Promise<{ part: Part; image: Attachment | null }> {
  let read;
  try {
    read = await reader.read(server, uri);
  } catch (e) {
    throw new OpError("invalid_args", (e as Error).message);
  }
  const contents = (Array.isArray(read?.contents) ? read.contents : []).slice(0, MAX_CONTENTS);
  const data: MentionData = {
    mention: true,
    path: `${server}:${uri}`,
    kind: "resource",
    size: 0,
    truncated: false,
    server,
    uri,
  };
  const texts: string[] = [];
  let image: Attachment | null = null;
  let binary = 0;
  for (const c of contents) {
    const mime = typeof c?.mimeType === "string" ? c.mimeType.slice(0, 100).toLowerCase() : "";
    if (mime && !data.mimeType) data.mimeType = mime;
    if (typeof c?.text === "string") {
      data.size += encoder.encode(c.text).length;
      texts.push(
        contents.length > 1 ? `--- ${String(c.uri).slice(0, 2000)} ---\n${c.text}` : c.text,
      );
    } else if (typeof c?.blob === "string") {
      const bytes = base64Bytes(c.blob);
      data.size += bytes;
      const stored: Attachment | null =
        !image && isImageMime(mime) && bytes <= MENTION_LIMITS.resourceImageBytes
          ? await storeImage(home, c.blob, imageName(String(c.uri ?? uri), mime), mime)
          : null;
      if (stored) image = stored;
      else binary += bytes;
    }
  }
  const all = texts.join("\n\n");
  const text = cutBytes(all, MENTION_LIMITS.fileBytes);
  data.truncated = text.length < all.length;
  if (!texts.length) data.note = image ? "image" : binary ? "binary" : undefined;
  if (data.note === undefined) delete data.note;
  const part: Part = texts.length
    ? { type: "file", text, data: { ...data } }
    : { type: "file", data: { ...data } };
  return { part, image };
}

/** Stores an image as an upload; null when it is not base64 (then described as binary). */
async function storeImage(home: string, b64: string, name: string, mime: string) {
  const bytes = fromBase64(b64);
  if (!bytes?.length) return null;
  return await saveUpload(home, {
    name,
    mime,
    body: new Blob([bytes]).stream(),
    length: bytes.length,
  });
}
