/**
 * What the model receives for a message's attachments (decided here, once):
 * - images: inline (base64) when the model is known to have vision; otherwise — vision
 *   false or unknown — a text line naming the copy in the workspace, so the agent can
 *   still point the user to it;
 * - text files (UTF-8, ≤ 100 KB): inlined as `<file path="…">…</file>` blocks;
 * - other or larger files: a text line with the workspace path (read_file can open
 *   it, since every attachment is copied to `<workspace>/.reinagent/attachments/`).
 * Bytes are read from the upload store when the run starts.
 */
import type { Entry } from "../../protocol/index.ts";
import { COMPOSER_LIMITS } from "../../protocol/composer.ts";
import { uploadDataPath } from "../composer/uploads_store.ts";
import { isImageMime } from "../composer/uploads_store.ts";

export interface AttachmentData {
  /** Image bytes (base64) by attachment id; only filled for vision models. */
  images: Map<string, { mimeType: string; data: string }>;
  /** Text of small text files, by attachment id. */
  texts: Map<string, string>;
}

export const emptyAttachmentData = (): AttachmentData => ({ images: new Map(), texts: new Map() });

/** Whether bytes look like text: valid UTF-8 without NUL bytes. */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

async function readBytes(home: string, id: string, copy: unknown): Promise<Uint8Array | null> {
  for (const path of [uploadDataPath(home, id), typeof copy === "string" ? copy : null]) {
    if (!path) continue;
    try {
      return await Deno.readFile(path);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }
  return null;
}

/** Loads what the user entries' attachments need for a request to a model. */
export async function loadAttachmentData(
  entries: Entry[],
  home: string,
  vision: boolean,
): Promise<AttachmentData> {
  const out = emptyAttachmentData();
  for (const e of entries) {
    if (e.role !== "user") continue;
    for (const p of e.parts) {
      const id = typeof p.data?.id === "string" ? p.data.id : "";
      if (!/^u[0-9a-f]{32}$/.test(id)) continue;
      const mime = String(p.data?.mime ?? "");
      if (p.type === "image" && vision && isImageMime(mime) && !out.images.has(id)) {
        const bytes = await readBytes(home, id, p.data?.path);
        if (bytes) {
          out.images.set(id, { mimeType: mime, data: bytes.toBase64() });
        }
      } else if (
        p.type === "file" && Number(p.data?.size ?? Infinity) <= COMPOSER_LIMITS.inlineTextBytes &&
        !out.texts.has(id)
      ) {
        const bytes = await readBytes(home, id, p.data?.path);
        const text = bytes ? decodeText(bytes) : null;
        if (text !== null) out.texts.set(id, text);
      }
    }
  }
  return out;
}

const kb = (n: unknown) => `${Math.max(1, Math.round(Number(n) / 1024))} KB`;

/** Escapes a path for the `<file path="…">` attribute. */
const attr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/** The model-facing blocks of one image or file part. */
export function attachmentBlocks(
  part: { type: string; data?: Record<string, unknown> },
  data: AttachmentData,
): ({ type: "text"; text: string } | { type: "image"; mimeType: string; data: string })[] {
  const d = part.data ?? {};
  const id = String(d.id ?? "");
  const name = String(d.name ?? "attachment");
  const path = String(d.path ?? name);
  if (part.type === "image") {
    const img = data.images.get(id);
    if (img) return [{ type: "text", text: `[Image: ${path}]` }, { type: "image", ...img }];
    return [{
      type: "text",
      text: `[Attached image: ${path} (${d.mime}, ${
        kb(d.size)
      }) — not shown: this model cannot see images]`,
    }];
  }
  const text = data.texts.get(id);
  if (text !== undefined) {
    return [{ type: "text", text: `<file path="${attr(path)}">\n${text}\n</file>` }];
  }
  return [{
    type: "text",
    text: `[Attached file: ${path} (${d.mime}, ${kb(d.size)}) — read it with read_file if needed]`,
  }];
}
