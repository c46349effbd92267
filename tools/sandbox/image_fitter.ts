/**
 * The image worker's client (main thread): fits images to the models' limits off the
 * server's thread, in a worker that has no permissions (`image_worker.ts`). Started on the
 * first image that needs it, closed when idle; a worker that crashes or takes too long is
 * ended and its images are reported as not resized, never hung on.
 */
import type { ToolResult } from "../types.ts";
import { type FitOutcome, resizedNote, unsentNote } from "../image_fit.ts";
import { IdleTimer, lightTimer } from "../../lib/light_timer.ts";

/** Beside this module in the source tree, or the bundle's `image_worker.js` (flat folder). */
const WORKER_URL = new URL(
  import.meta.url.endsWith(".js") ? "./image_worker.js" : "./image_worker.ts",
  import.meta.url,
);

const IDLE_MS = 60_000;
/** A 50 MP JPEG decodes in a few seconds here; far longer means a pathological file. */
const FIT_TIMEOUT_MS = 60_000;

export class ImageFitter {
  private worker: Worker | null = null;
  private pending = new Map<number, (o: FitOutcome) => void>();
  private nextId = 1;
  private idle: IdleTimer;

  constructor(idleMs = IDLE_MS, private timeoutMs = FIT_TIMEOUT_MS) {
    this.idle = new IdleTimer(idleMs, () => {
      if (this.pending.size === 0) this.stop("closed", true);
    });
  }

  /** The image fitted to the limit, or why it could not be. */
  fit(bytes: Uint8Array): Promise<FitOutcome> {
    const worker = this.worker ?? this.spawn();
    this.idle.cancel();
    const id = this.nextId++;
    return new Promise<FitOutcome>((resolve) => {
      const timer = lightTimer(this.timeoutMs, () => {
        this.stop(`resizing took longer than ${Math.round(this.timeoutMs / 1000)} s`);
      });
      this.pending.set(id, (o) => {
        timer.cancel();
        resolve(o);
      });
      worker.postMessage({ id, bytes });
    }).finally(() => {
      if (this.pending.size === 0 && this.worker) this.idle.touch();
    });
  }

  /** Ends the worker; images still waiting are answered as not resized. */
  close(): void {
    this.stop("the server is closing", true);
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_URL, { type: "module", deno: { permissions: "none" } });
    worker.onmessage = (e: MessageEvent<{ id: number; result: FitOutcome }>) => {
      const done = this.pending.get(e.data.id);
      this.pending.delete(e.data.id);
      done?.(e.data.result);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      this.stop(`the image decoder failed (${e.message})`);
    };
    this.worker = worker;
    return worker;
  }

  private stop(reason: string, transient = false): void {
    this.idle.cancel();
    this.worker?.terminate();
    this.worker = null;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const done of waiting) done({ ok: false, reason, ...(transient ? { transient } : {}) });
  }
}

/**
 * A tool result that left an image to fit (`imageToFit`, read_file's too-large
 * image) made final: the fitted image attached with a note of its new size, or a note of
 * why it is not attached. Other results pass unchanged.
 */
export async function fitResultImage(result: ToolResult, fitter: ImageFitter): Promise<ToolResult> {
  const { imageToFit: bytes, ...kept } = result;
  if (!(bytes instanceof Uint8Array)) return result;
  result = kept;
  const meta = result.meta ?? {};
  const image = meta.image;
  if (!image) return result;
  const out = await fitter.fit(bytes);
  if (!out.ok) {
    return {
      ...result,
      content: `${result.content} ${unsentNote(out.reason)}`,
      meta: { ...meta, image: { ...image, attached: false, reason: out.reason } },
    };
  }
  const sent = {
    mimeType: out.mimeType,
    width: out.width,
    height: out.height,
    bytes: out.data.length,
  };
  return {
    ...result,
    content: `${result.content} ${resizedNote(image, out)}`,
    meta: {
      ...meta,
      image: { ...image, attached: true, sent },
      images: [{ mimeType: out.mimeType, data: out.data.toBase64() }],
    },
  };
}
