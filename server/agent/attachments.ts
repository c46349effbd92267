/**
 * What the model receives for a message's attachments (decided here, once):
 * - images: inline (base64) when the model is known to have vision — one over the models'
 *   limit resized first (by the image worker, once per attachment), with a note of its
 *   size; otherwise — vision false or unknown — a text line naming the copy in the
 *   workspace, so the agent can still point the user to it;
 * - text files (UTF-8, ≤ 100 KB): inlined as `<file path="…">…</file>` blocks;
 * - other or larger files: a text line with the workspace path (read_file can open
 *   it, since every attachment is copied to `<workspace>/.reinagent/attachments/`).
 * Bytes are read from the upload store when the run starts.
 */
import type { Entry } from "../../protocol/index.ts";
import { COMPOSER_LIMITS } from "../../protocol/composer.ts";
import { uploadDataPath } from "../composer/uploads_store.ts";
import { isImageMime } from "../composer/uploads_store.ts";
import { imageInfo } from "../../tools/image_info.ts";
import { type FitOutcome, fitPlan, resizedNote, unsentNote } from "../../tools/image_fit.ts";

export interface AttachmentData {
  /**
   * Image bytes (base64) by attachment id, with a note when resized; only filled for vision
   * models.
   */
  images: Map<string, { mimeType: string; data: string; note?: string }>;
  /** Why an image is not sent though the model sees images (too large to resize). */
  unsent?: Map<string, string>;
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

/** Shrinks an image to the models' limit (the image worker's `fit`). */
export type ImageFit = (bytes: Uint8Array) => Promise<FitOutcome>;

/**
 * Resized attachments by id (an id's bytes never change): each turn sends the whole history
 * again, and an image is decoded once, not per turn. Bounded by count; entries are at most
 * the limit's size.
 */
const fitted = new Map<string, { mimeType: string; data: string; note?: string } | string>();
const FITTED_KEPT = 8;

async function fittedImage(
  id: string,
  bytes: Uint8Array,
  fit: ImageFit,
): Promise<{ mimeType: string; data: string; note?: string } | string> {
  const known = fitted.get(id);
  if (known !== undefined) return known;
  const info = imageInfo(bytes)!;
  const out = await fit(bytes);
  const value = out.ok
    ? { mimeType: out.mimeType, data: out.data.toBase64(), note: resizedNote(info, out) }
    : unsentNote(out.reason);
  if (!out.ok && out.transient) return value;
  fitted.set(id, value);
  if (fitted.size > FITTED_KEPT) fitted.delete(fitted.keys().next().value!);
  return value;
}

/** An image's blocks for the model: as it is, resized, or the reason it is not sent. */
async function imageFor(
  id: string,
  mime: string,
  bytes: Uint8Array,
  fit: ImageFit | undefined,
): Promise<{ mimeType: string; data: string; note?: string } | string> {
  const info = imageInfo(bytes);
  // Bytes that are not what their type says are sent as before: the provider judges them.
  if (!info) return { mimeType: mime, data: bytes.toBase64() };
  const plan = fitPlan(info, bytes.length);
  if (plan.kind === "send") return { mimeType: mime, data: bytes.toBase64() };
  if (plan.kind === "refuse" || !fit) {
    return unsentNote(plan.kind === "refuse" ? plan.reason : "no image worker");
  }
  return await fittedImage(id, bytes, fit);
}

/**
 * Loads what the user entries' attachments need for a request to a model; `fit` shrinks
 * images over the models' limit.
 */
export async function loadAttachmentData(
  entries: Entry[],
  home: string,
  vision: boolean,
  fit?: ImageFit,
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
          const image = await imageFor(id, mime, bytes, fit);
          if (typeof image === "string") (out.unsent ??= new Map()).set(id, image);
          else out.images.set(id, image);
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
    if (img) {
      const { note, ...image } = img;
      const text = note ? `[Image: ${path} — ${note}]` : `[Image: ${path}]`;
      return [{ type: "text", text }, { type: "image", ...image }];
    }
    const unsent = data.unsent?.get(id);
    if (unsent) {
      return [{
        type: "text",
        text: `[Attached image: ${path} (${d.mime}, ${kb(d.size)}) — not shown. ${unsent}]`,
      }];
    }
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
