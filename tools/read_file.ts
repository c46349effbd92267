/**
 * `read_file`: a window of lines (≤ 2000 lines / 256 KB per call), binary detection.
 * A PNG, JPEG, GIF or WebP image comes back as an image (`meta.images`) that the loop
 * shows to models taking images; others read a note instead. One larger than the models'
 * limit is left to be resized (`ToolResult.imageToFit`, see `image_fit.ts`). A PDF is read as its text,
 * page by page (PDF.js through `unpdf`, loaded only when a PDF is read).
 */
import { fail, ok, type ToolResult } from "./types.ts";
import { defineTool } from "./define.ts";
import type { ToolDetails } from "../protocol/tool_details.ts";
import { doc, int, obj } from "../protocol/schema.ts";
import { filePath } from "./args.ts";
import { notRegular, toolPath } from "./paths.ts";
import { imageInfo } from "./image_info.ts";
import { fitPlan, sizeText, unsentNote } from "./image_fit.ts";

const MAX_LINES = 2000;
const MAX_BYTES = 256 * 1024;
const MAX_FILE = 64 * 1024 * 1024;

/** Bytes of a file read_file takes from the disk only: images, PDFs, binary files. */
export function notPlainText(head: Uint8Array): boolean {
  return imageInfo(head) !== null || isPdf(head) || looksBinary(head);
}

export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8000);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

const isPdf = (b: Uint8Array) =>
  b.length > 5 && b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46 && b[4] === 0x2d;

/** A PDF's text, each page after a `--- page N ---` line. */
async function pdfText(
  bytes: Uint8Array,
): Promise<{ text: string; pages: number } | { error: string }> {
  try {
    const { extractText, getDocumentProxy } = await import("unpdf");
    const doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    const { totalPages, text } = await extractText(doc, { mergePages: false });
    const body = (text as string[]).map((t, i) => `--- page ${i + 1} ---\n${t.trim()}`).join("\n");
    return { text: body, pages: totalPages };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

export const READ_FILE_MAX_LINES = MAX_LINES;

export const readFile = defineTool<
  { path: string; offset?: number; limit?: number },
  ToolDetails<"read_file">
>({
  name: "read_file",
  description:
    "Read a text file. Returns numbered lines; use offset (1-based line) and limit to page " +
    "through large files (at most 2000 lines or 256 KB per call).",
  args: obj({
    path: filePath,
    "offset?": doc(int({ min: 1, max: Infinity }), "First line to read (1-based)"),
    "limit?": doc(int({ min: 1, max: MAX_LINES }), "Number of lines"),
  }),
  kind: "read",
  async execute(args, ctx) {
    const target = toolPath("read_file", args.path, ctx);
    if ("error" in target) return fail(target.error);
    const { abs: path, shown } = target;
    const offset = args.offset ?? 1;
    const limit = args.limit ?? MAX_LINES;
    let bytes: Uint8Array;
    let st: Deno.FileInfo;
    try {
      st = Deno.statSync(path);
      if (st.isDirectory) return fail(`${shown} is a directory. Use list_dir instead.`);
      // A FIFO, socket or device would block the read forever (or never end).
      if (!st.isFile) return fail(notRegular(shown));
      if (st.size > MAX_FILE) {
        return fail(`${shown} is too large to read (${st.size} bytes > 64 MB).`);
      }
      bytes = Deno.readFileSync(path);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return fail(`File not found: ${shown}`);
      return fail(`Cannot read ${shown}: ${(e as Error).message}`);
    }
    const image = imageInfo(bytes);
    if (image) {
      const kind = image.mimeType.slice(6).toUpperCase();
      const what = `${shown} is an image (${kind}, ${image.width}×${image.height} px, ${
        sizeText(bytes.length)
      })`;
      const file = { abs: path, mtimeMs: st.mtime?.getTime() ?? null, size: st.size };
      const plan = fitPlan(image, bytes.length);
      const meta = { path: shown, image: { ...image, bytes: bytes.length }, file };
      if (plan.kind === "refuse") {
        return ok(`${what}. ${unsentNote(plan.reason)}`, {
          ...meta,
          image: { ...meta.image, attached: false, reason: plan.reason },
        });
      }
      if (plan.kind === "resize") {
        // Shrunk outside this worker, by the image worker, before the result is kept.
        return {
          ...ok(`${what}.`, { ...meta, image: { ...meta.image, attached: false } }),
          imageToFit: bytes,
        };
      }
      return ok(`${what}.`, {
        ...meta,
        image: { ...meta.image, attached: true },
        images: [{ mimeType: image.mimeType, data: bytes.toBase64() }],
      });
    }
    let body: string;
    let pages: number | undefined;
    if (isPdf(bytes)) {
      const got = await pdfText(bytes);
      if ("error" in got) return fail(`Cannot read the text of ${shown}: ${got.error}`);
      body = got.text;
      pages = got.pages;
      if (!body.trim()) {
        return ok(
          `${shown} is a PDF of ${pages} page(s) with no text layer (scanned images?).`,
          { path: shown, pdfPages: pages },
        );
      }
    } else if (looksBinary(bytes)) {
      return fail(`${shown} looks like a binary file (${bytes.length} bytes); not shown.`);
    } else body = new TextDecoder().decode(bytes);
    return textWindow(body, shown, offset, limit, {
      ...(pages !== undefined ? { pdfPages: pages } : {}),
      // The stat from before the read: a change in between makes the stamp older, so the
      // stale-read check errs on the side of "changed since read".
      file: { abs: path, mtimeMs: st.mtime?.getTime() ?? null, size: st.size },
    });
  },
});

/**
 * What read_file answers for a file's text (wherever it was read: the disk, an editor's
 * buffer): numbered lines from `offset`, at most `limit` of them and {@link MAX_BYTES},
 * with a note on how to go on when cut.
 */
export function textWindow(
  body: string,
  shown: string,
  offset: number,
  limit: number,
  meta: Record<string, unknown>,
): ToolResult {
  const lines = body.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const total = lines.length;
  if (offset > Math.max(1, total)) {
    return fail(`offset ${offset} is past the end of ${shown} (${total} lines).`);
  }
  const out: string[] = [];
  let size = 0;
  let last = offset - 1;
  for (let i = offset - 1; i < Math.min(total, offset - 1 + limit); i++) {
    const line = `${String(i + 1).padStart(6)}\t${lines[i]}`;
    if (size + line.length > MAX_BYTES) break;
    out.push(line);
    size += line.length + 1;
    last = i + 1;
  }
  const truncated = last < total;
  const note = truncated
    ? `\n(truncated: showed lines ${offset}-${last} of ${total}; continue with offset ${last + 1})`
    : "";
  return ok(out.join("\n") + note, {
    path: shown,
    totalLines: total,
    from: offset,
    to: last,
    truncated,
    ...meta,
  });
}
