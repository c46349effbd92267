/**
 * `POST /api/uploads?name=…&mime=…` (raw body; `x-upload-name` / content-type
 * headers are accepted too) stores an attachment; `GET /api/uploads/<id>` serves it
 * back. Both run after the token check in `routes.ts`; POST also requires a
 * same-origin request (or none, for non-browser clients).
 */
import { readUpload, saveUpload, uploadDataPath, UploadError } from "../composer/uploads_store.ts";
import { ATTACHMENT_ID_RE } from "../../protocol/composer.ts";

const HEADERS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...HEADERS },
  });
}

const fail = (status: number, code: string, message: string) =>
  json(status, { error: { code, message } });

/** RFC 5987 file name for Content-Disposition. */
const dispositionName = (name: string) =>
  `filename="${name.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${
    encodeURIComponent(name)
  }`;

/**
 * Answers `/api/uploads[/<id>]` requests; null for any other path.
 * @param sameOrigin whether the request's Origin (if any) matches its host
 */
export async function handleUploads(
  req: Request,
  url: URL,
  home: string,
  sameOrigin: boolean,
  now: () => number = Date.now,
): Promise<Response | null> {
  const p = url.pathname;
  if (p !== "/api/uploads" && !p.startsWith("/api/uploads/")) return null;
  if (p === "/api/uploads" || p === "/api/uploads/") {
    if (req.method !== "POST") {
      return fail(405, "method_not_allowed", `${req.method} not allowed; POST a file`);
    }
    if (!sameOrigin) return fail(403, "forbidden_origin", "upload origin does not match host");
    const name = url.searchParams.get("name") ?? decodeHeader(req.headers.get("x-upload-name"));
    const mime = url.searchParams.get("mime") ?? req.headers.get("content-type") ?? "";
    if (name === null) return fail(400, "bad_name", "missing file name (?name=)");
    const lenHeader = req.headers.get("content-length");
    const length = lenHeader !== null && /^\d+$/.test(lenHeader) ? Number(lenHeader) : null;
    try {
      const attachment = await saveUpload(home, { name, mime, body: req.body, length }, now);
      return json(201, { attachment });
    } catch (e) {
      // Drain what is left so the connection stays usable; the error is the answer.
      await req.body?.cancel().catch(() => {});
      if (e instanceof UploadError) return fail(e.status, e.code, e.message);
      console.error("upload failed:", e);
      return fail(500, "internal", `the upload could not be stored: ${(e as Error).message}`);
    }
  }
  const id = p.slice("/api/uploads/".length);
  if (req.method !== "GET" && req.method !== "HEAD") {
    return fail(405, "method_not_allowed", `${req.method} not allowed`);
  }
  if (!ATTACHMENT_ID_RE.test(id)) return fail(404, "not_found", "no such attachment");
  const meta = await readUpload(home, id);
  if (!meta) return fail(404, "not_found", "no such attachment");
  let file: Deno.FsFile;
  try {
    file = await Deno.open(uploadDataPath(home, id), { read: true });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return fail(404, "not_found", "no such attachment");
    throw e;
  }
  const headers: Record<string, string> = {
    ...HEADERS,
    "content-length": String(meta.size),
    "cache-control": "private, max-age=31536000, immutable",
    "content-security-policy": "default-src 'none'; sandbox",
  };
  if (meta.kind === "image") {
    headers["content-type"] = meta.mime;
    headers["content-disposition"] = `inline; ${dispositionName(meta.name)}`;
  } else {
    headers["content-type"] = "application/octet-stream";
    headers["content-disposition"] = `attachment; ${dispositionName(meta.name)}`;
  }
  if (req.method === "HEAD") {
    file.close();
    return new Response(null, { headers });
  }
  return new Response(file.readable, { headers });
}

function decodeHeader(v: string | null): string | null {
  if (v === null) return null;
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}
