/**
 * Pasting an image in the native desktop window: WebKitGTK's paste event carries no
 * image from the system clipboard, so a paste that brought the page nothing asks the
 * window for the clipboard's image (`reinagentNative.clipboardImage()`, a PNG in
 * base64; see server/window/native/clipboard_image.ts) and attaches it as a pasted
 * image is. In a browser there is no such window: nothing happens.
 *
 * @typedef {{png: string} | {error: string} | null} NativeImage
 */
import { COMPOSER_LIMITS } from "../../protocol/index.ts";
import { t } from "../i18n/index.js";
import { addFiles, attachProblem, classifyPaste, formatSize } from "./attachments.js";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The native window's clipboard reader, or null in a browser. @returns {(() => Promise<NativeImage>)|null} */
export function nativeClipboardImage() {
  const native = /** @type {{reinagentNative?: {clipboardImage?: () => Promise<NativeImage>}}} */ (
    /** @type {unknown} */ (globalThis)
  ).reinagentNative;
  return typeof native?.clipboardImage === "function" ? native.clipboardImage : null;
}

/** A paste that brought no file and no text (what WebKitGTK gives for an image). @param {DataTransfer|null} data */
export function pasteIsEmpty(data) {
  if (!data) return true;
  if (data.files?.length) return false;
  if ([...(data.items ?? [])].some((i) => i.kind === "file")) return false;
  return !data.getData("text/plain");
}

/**
 * The PNG bytes of the window's answer, or null (no image, not PNG, too large).
 * @param {NativeImage} r
 * @returns {Uint8Array<ArrayBuffer>|null|"too-large"}
 */
export function pngOfReply(r) {
  if (!r || typeof r !== "object") return null;
  if ("error" in r) return r.error === "too-large" ? "too-large" : null;
  if (typeof r.png !== "string" || r.png.length > COMPOSER_LIMITS.imageBytes * 4 / 3 + 4) {
    return null;
  }
  let bytes;
  try {
    bytes = Uint8Array.from(atob(r.png), (c) => c.charCodeAt(0));
  } catch {
    return null; // not base64
  }
  if (!PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return null;
  return bytes.length > COMPOSER_LIMITS.imageBytes ? "too-large" : bytes;
}

/**
 * After an empty paste in the native window: attaches the clipboard's image, if any.
 * @param {(() => Promise<NativeImage>)|null} read
 * @returns {Promise<boolean>} whether an image was attached
 */
export async function attachClipboardImage(read = nativeClipboardImage()) {
  if (!read) return false;
  const png = pngOfReply(await read().catch(() => null));
  if (png === "too-large") {
    attachProblem.value = {
      key: "attach.imageTooLarge",
      params: { name: t("attach.clipboardImage"), max: formatSize(COMPOSER_LIMITS.imageBytes) },
    };
    return false;
  }
  if (!png) return false;
  const data = new DataTransfer();
  data.items.add(new File([png], "image.png", { type: "image/png" }));
  const got = classifyPaste(data); // named as a pasted image is
  if (!got) return false;
  addFiles(got.files);
  return true;
}
