/**
 * Fitting an image to what every model provider takes: the limits, when to shrink one, and
 * what the model is told. The shrinking itself is `image_resize.ts`, which only the image
 * worker loads (its codecs are CommonJS packages: a bundle that reached them from here would
 * start Node's module layer in every process).
 */
import type { ImageInfo } from "./image_info.ts";

/**
 * What each wire format takes in one image, as its provider documents it, and the size
 * past which it shows the model nothing more:
 * - Anthropic Messages: 5 MB of base64 text per image (3.75 MB of bytes) and 8000 px a
 *   side, but 2000 px a side once a request holds more than 20 images (a long task's
 *   history does); past ~1568 px on the long edge it scales down itself.
 * - OpenAI Chat Completions and Responses: 50 MB for all of a request's images; high
 *   detail scales an image to fit 2048 × 2048 first.
 * - Gemini: 7 MB per inline image on Vertex AI (20 MB per request on the Gemini API);
 *   images larger than 3072 px a side are scaled down.
 */
export const FORMAT_IMAGE_LIMITS = {
  "anthropic-messages": { bytes: 3_750_000, side: 2000 },
  "openai-chat-completions": { bytes: 20_000_000, side: 2048 },
  "openai-responses": { bytes: 20_000_000, side: 2048 },
  "google-generative-ai": { bytes: 7_000_000, side: 3072 },
} as const;

/**
 * The limit an image is fitted to: the strictest of the formats. A task's history is sent
 * again with every request, to whichever model the task uses next, so a stored image must
 * suit them all.
 */
export const IMAGE_LIMIT = {
  bytes: Math.min(...Object.values(FORMAT_IMAGE_LIMITS).map((l) => l.bytes)),
  side: Math.min(...Object.values(FORMAT_IMAGE_LIMITS).map((l) => l.side)),
};

/** What a request with few images takes (an image that cannot be resized may go up to it). */
export const IMAGE_HARD_SIDE = 8000;
/** Larger images are not decoded: 50 MP is 200 MB of pixels before any copy. */
export const MAX_DECODE_PIXELS = 50_000_000;
/** Larger files are not sent to the decoder at all. */
export const MAX_DECODE_BYTES = 48 * 1024 * 1024;

export const sizeText = (n: number) =>
  n < 1024
    ? `${n} B`
    : n < 1024 * 1024
    ? `${(n / 1024).toFixed(1)} KB`
    : `${(n / 1048576).toFixed(1)} MB`;

/** What the model is told of an image sent smaller than it is. */
export function resizedNote(
  from: { width: number; height: number },
  to: { mimeType: string; width: number; height: number; data: Uint8Array; frames?: number },
): string {
  const kind = to.mimeType.slice(6).toUpperCase();
  const frame = to.frames ? ` (the first of its ${to.frames} frames)` : "";
  return `Sent resized${frame} from ${from.width}×${from.height} to ${to.width}×${to.height} px ` +
    `(${kind}, ${sizeText(to.data.length)}) to fit the models' image limits; ` +
    "the file itself is unchanged. Fine detail may be lost: crop a copy to see it.";
}

/** What the model is told of an image too large to send that could not be made smaller. */
export function unsentNote(reason: string): string {
  return `It is larger than models accept (${sizeText(IMAGE_LIMIT.bytes)} and ` +
    `${IMAGE_LIMIT.side} px a side) and could not be resized: ${reason}. Not attached; make ` +
    "a smaller copy (e.g. with an image tool in a command) and read that.";
}

export type FitPlan =
  | { kind: "send" }
  | { kind: "resize" }
  | { kind: "refuse"; reason: string };

export const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;

/** Whether an image goes as it is, is resized first, or cannot be sent. */
export function fitPlan(info: ImageInfo, size: number, limit = IMAGE_LIMIT): FitPlan {
  const side = Math.max(info.width, info.height);
  if (size <= limit.bytes && side <= limit.side) return { kind: "send" };
  if (info.mimeType === "image/webp") {
    if (size <= limit.bytes && side <= IMAGE_HARD_SIDE) return { kind: "send" };
    return { kind: "refuse", reason: "WebP images cannot be resized here" };
  }
  if (info.width * info.height > MAX_DECODE_PIXELS) {
    const mp = Math.round(info.width * info.height / 1e6);
    return {
      kind: "refuse",
      reason: `at ${mp} megapixels it is larger than the ${
        MAX_DECODE_PIXELS / 1e6
      } megapixels decoded for resizing`,
    };
  }
  if (size > MAX_DECODE_BYTES) {
    return { kind: "refuse", reason: `files over ${mb(MAX_DECODE_BYTES)} are not decoded` };
  }
  return { kind: "resize" };
}

export type FitOutcome =
  | {
    ok: true;
    mimeType: "image/png" | "image/jpeg";
    data: Uint8Array;
    width: number;
    height: number;
    /** Frames of an animated GIF (only the first is sent). */
    frames?: number;
  }
  | {
    ok: false;
    reason: string;
    /** Not about the image (the worker was closed): another try may succeed. */
    transient?: boolean;
  };
