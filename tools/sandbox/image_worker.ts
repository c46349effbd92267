/**
 * Worker entry: fits images to the models' limits (`../image_fit.ts`). Started by
 * `ImageFitter` with no permissions at all: the bytes it decodes come from files and
 * uploads a hostile model may have made.
 */
/// <reference lib="deno.worker" />
import { fitImage } from "../image_resize.ts";

self.onmessage = async (e: MessageEvent<{ id: number; bytes: Uint8Array }>) => {
  const { id, bytes } = e.data;
  const result = await fitImage(bytes);
  self.postMessage({ id, result }, result.ok ? [result.data.buffer] : []);
};
