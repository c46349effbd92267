/**
 * Uploaded attachments on disk: `<home>/uploads/<id>/meta.json` + `<id>/data`. The
 * stored file is always named `data` (the user's file name lives only in the
 * metadata), ids are random and strictly validated, so no request can reach a path
 * outside the uploads folder.
 */
import { join } from "../../lib/path.ts";
import {
  type Attachment,
  ATTACHMENT_ID_RE,
  COMPOSER_LIMITS,
  IMAGE_MIMES,
  MIME_RE,
} from "../../protocol/composer.ts";

/** A rejected upload: HTTP status, error code and a message for people. */
export class UploadError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

export const uploadsDir = (home: string): string => join(home, "uploads");

/** The folder of an upload, or null when `id` is not a valid upload id. */
export function uploadDir(home: string, id: string): string | null {
  return ATTACHMENT_ID_RE.test(id) ? join(uploadsDir(home), id) : null;
}

export const isImageMime = (mime: string): boolean =>
  (IMAGE_MIMES as readonly string[]).includes(mime);

/** Largest accepted size for a type, in bytes. */
export const maxBytesFor = (mime: string): number =>
  isImageMime(mime) ? COMPOSER_LIMITS.imageBytes : COMPOSER_LIMITS.fileBytes;

/** Problems with a file name ("" when fine). */
export function nameProblem(name: string): string {
  if (!name.trim()) return "the file name is empty";
  if ([...name].length > COMPOSER_LIMITS.nameChars) {
    return `the file name is longer than ${COMPOSER_LIMITS.nameChars} characters`;
  }
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f/\\]/.test(name)) {
    return "the file name must not contain slashes or control characters";
  }
  if (name === "." || name === "..") return "the file name must not be . or ..";
  return "";
}

const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

/**
 * Stores an upload, streaming the body to disk and stopping at the size limit.
 * Nothing is left behind when it fails.
 */
export async function saveUpload(
  home: string,
  input: {
    name: string;
    mime: string;
    body: ReadableStream<Uint8Array> | null;
    /** Content-Length when the client sent one. */
    length: number | null;
  },
  now: () => number = Date.now,
): Promise<Attachment> {
  const name = input.name.trim();
  const problem = nameProblem(name);
  if (problem) throw new UploadError(400, "bad_name", problem);
  const mime = input.mime.trim().toLowerCase();
  if (!MIME_RE.test(mime)) {
    throw new UploadError(400, "bad_type", `"${input.mime.slice(0, 80)}" is not a MIME type`);
  }
  const max = maxBytesFor(mime);
  const limitMessage = `${isImageMime(mime) ? "images" : "files"} may be at most ${mb(max)}`;
  if (input.length !== null && input.length > max) {
    throw new UploadError(413, "too_large", `${name} is too large: ${limitMessage}`);
  }
  if (!input.body) throw new UploadError(400, "empty", "the upload has no body");
  const id = "u" + crypto.randomUUID().replaceAll("-", "");
  const dir = join(uploadsDir(home), id);
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  let size = 0;
  try {
    const file = await Deno.open(join(dir, "data"), { write: true, createNew: true, mode: 0o600 });
    try {
      for await (const chunk of input.body) {
        size += chunk.length;
        if (size > max) {
          throw new UploadError(413, "too_large", `${name} is too large: ${limitMessage}`);
        }
        let off = 0;
        while (off < chunk.length) off += await file.write(chunk.subarray(off));
      }
    } finally {
      file.close();
    }
    if (size === 0) throw new UploadError(400, "empty", `${name} is empty`);
    const att: Attachment = {
      id,
      name,
      mime,
      size,
      kind: isImageMime(mime) ? "image" : "file",
      createdAt: now(),
    };
    await Deno.writeTextFile(join(dir, "meta.json"), JSON.stringify(att), { mode: 0o600 });
    return att;
  } catch (e) {
    await Deno.remove(dir, { recursive: true }).catch((err) =>
      console.error(`could not clean up upload ${dir}:`, err)
    );
    throw e;
  }
}

/** The metadata of an upload, or null when it does not exist (or the id is invalid). */
export async function readUpload(home: string, id: string): Promise<Attachment | null> {
  const dir = uploadDir(home, id);
  if (!dir) return null;
  try {
    return JSON.parse(await Deno.readTextFile(join(dir, "meta.json"))) as Attachment;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

/** The path of an upload's bytes (the id must be valid). */
export function uploadDataPath(home: string, id: string): string {
  const dir = uploadDir(home, id);
  if (!dir) throw new Error(`invalid upload id ${id}`);
  return join(dir, "data");
}

/** Metadata of several uploads in order; throws `not_found`-style errors for unknown ids. */
export async function resolveUploads(home: string, ids: readonly string[]): Promise<Attachment[]> {
  const out: Attachment[] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) continue;
    seen.add(id);
    const a = await readUpload(home, id);
    if (!a) throw new UploadError(404, "not_found", `attachment ${id} does not exist`);
    out.push(a);
  }
  return out;
}
