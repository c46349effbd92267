/**
 * The UI, embedded: the bundle and stylesheet are imported as text so they are part
 * of the module graph (and of the compiled binary). Built by `deno task build-ui`.
 */
import appJs from "../../ui/dist/app.js" with { type: "text" };
import appCss from "../../ui/dist/app.css" with { type: "text" };
import favicon from "../../ui/favicon.svg" with { type: "text" };
import pushWorker from "../../ui/push_sw.js" with { type: "text" };
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";

export interface Asset {
  body: Uint8Array<ArrayBuffer>;
  type: string;
  etag: string;
  /** Gzipped body, computed on first use. */
  gz?: Uint8Array<ArrayBuffer>;
  /** Whether the URL carries a content hash (so the browser may cache forever). */
  immutable: boolean;
}

function asset(text: string, type: string, immutable: boolean): Asset {
  const body = new TextEncoder().encode(text);
  const etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`;
  return { body, type, etag, immutable };
}

export function gzipped(a: Asset): Uint8Array<ArrayBuffer> {
  a.gz ??= Uint8Array.from(gzipSync(a.body, { level: 9 }));
  return a.gz;
}

const js = asset(appJs, "text/javascript; charset=utf-8", true);
const css = asset(appCss, "text/css; charset=utf-8", true);
const v = (a: Asset) => a.etag.slice(1, 9);

const INDEX_HTML = `<!doctype html>
<html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1,viewport-fit=cover">
<meta name="color-scheme" content="light dark">
<title>ReinAgent</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/app.css?v=${v(css)}">
</head><body><div id="app"></div>
<script type="module" src="/assets/app.js?v=${v(js)}"></script>
</body></html>`;

export const ASSETS: Record<string, Asset> = {
  "/": asset(INDEX_HTML, "text/html; charset=utf-8", false),
  "/assets/app.js": js,
  "/assets/app.css": css,
  "/favicon.svg": asset(favicon, "image/svg+xml", false),
  /** Web Push handler: imported by the app's service worker, or registered alone. */
  "/push_sw.js": asset(pushWorker, "text/javascript; charset=utf-8", false),
};
