/**
 * The UI, embedded: the bundle and stylesheets are imported as text so they are part
 * of the module graph (and of the compiled binary). Built by `deno task build-ui`. The
 * page links `first.css`, the rules the first screen uses; `app.css`, the whole
 * stylesheet, is added by the first view loaded on demand (ui/components/lazy.js).
 * ETags are the content's SHA-256 (Web Crypto, native, at load); gzip is a
 * `CompressionStream`, on first use — `node:crypto` and `node:zlib` would cost ~70 ms and
 * ~16 MB of a server start to import.
 */
import appJs from "../../ui/dist/app.js" with { type: "text" };
import appCss from "../../ui/dist/app.css" with { type: "text" };
import firstCss from "../../ui/dist/first.css" with { type: "text" };
import { BUILD, CHUNKS } from "../../ui/dist/chunks.ts";
import terminalJs from "../../ui/dist/terminal.js" with { type: "text" };
import favicon from "../../ui/favicon.svg" with { type: "text" };
import swSource from "../../ui/pwa/sw.js" with { type: "text" };
import icon192 from "../../ui/icons/icon-192.png.b64" with { type: "text" };
import icon512 from "../../ui/icons/icon-512.png.b64" with { type: "text" };
import pushWorker from "../../ui/push_sw.js" with { type: "text" };
import { toHex } from "../../lib/sha256.ts";

export interface Asset {
  body: Uint8Array<ArrayBuffer>;
  type: string;
  etag: string;
  /** Gzipped body, computed on first use. */
  gz?: Promise<Uint8Array<ArrayBuffer>>;
  /** Whether the URL carries a content hash (so the browser may cache forever). */
  immutable: boolean;
}

async function asset(
  content: string | Uint8Array<ArrayBuffer>,
  type: string,
  immutable: boolean,
): Promise<Asset> {
  const body = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  return { body, type, etag: `"${toHex(digest).slice(0, 16)}"`, immutable };
}

/** The gzipped body (compressed once, on the first request that accepts gzip). */
export function gzipped(a: Asset): Promise<Uint8Array<ArrayBuffer>> {
  a.gz ??= new Response(new Blob([a.body]).stream().pipeThrough(new CompressionStream("gzip")))
    .bytes();
  return a.gz;
}

const [js, css, first, terminal] = await Promise.all([
  asset(appJs, "text/javascript; charset=utf-8", true),
  asset(appCss, "text/css; charset=utf-8", true),
  asset(firstCss, "text/css; charset=utf-8", true),
  /** xterm.js, imported by the UI when a terminal is first shown (URL in the page's meta). */
  asset(terminalJs, "text/javascript; charset=utf-8", true),
]);
const v = (a: Asset) => a.etag.slice(1, 9);

/** The app's lazily loaded chunks by URL, in a folder named after the build. */
const chunkAssets: Record<string, Asset> = Object.fromEntries(
  await Promise.all(
    Object.entries(CHUNKS).map(async ([name, text]) =>
      [
        `/assets/${BUILD}/${name}`,
        await asset(text, "text/javascript; charset=utf-8", true),
      ] as const
    ),
  ),
);

const INDEX_HTML = `<!doctype html>
<html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1,viewport-fit=cover">
<meta name="color-scheme" content="light dark">
<title>ReinAgent</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="manifest" href="/manifest.webmanifest">
<link rel="apple-touch-icon" href="/icons/icon-192.png">
<meta name="theme-color" content="#4f46e5">
<meta name="apple-mobile-web-app-capable" content="yes">
<link rel="stylesheet" href="/assets/first.css?v=${v(first)}">
<meta name="reinagent-styles" content="/assets/app.css?v=${v(css)}">
<meta name="reinagent-terminal-js" content="/assets/terminal.js?v=${v(terminal)}">
</head><body><div id="app"></div>
<script type="module" src="/assets/app.js?v=${v(js)}"></script>
</body></html>`;

const png = (b64: string) => Uint8Array.from(atob(b64.trim()), (c) => c.charCodeAt(0));

/** The web app manifest: installable from the browser's menu (over HTTPS or localhost). */
const MANIFEST = {
  name: "ReinAgent",
  short_name: "ReinAgent",
  id: "/",
  start_url: "/",
  scope: "/",
  display: "standalone",
  background_color: "#ffffff",
  theme_color: "#4f46e5",
  icons: [
    { src: "/favicon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
    { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
    { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
    // Full-bleed with the mark inside the safe zone, so launchers may crop it.
    { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
  ],
};

/** What the service worker keeps for a fast start: the versioned shell, never data. */
export const SHELL_URLS = [
  `/assets/app.js?v=${v(js)}`,
  `/assets/first.css?v=${v(first)}`,
  `/assets/app.css?v=${v(css)}`,
  "/favicon.svg",
  "/manifest.webmanifest",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
];

const SERVICE_WORKER = `const SHELL = ${JSON.stringify(SHELL_URLS)};\n` +
  `const CACHE = ${JSON.stringify(`reinagent-shell-${v(js)}${v(first)}${v(css)}`)};\n` +
  swSource;

const [index, icon, manifest, serviceWorker, png192, png512, push] = await Promise.all([
  asset(INDEX_HTML, "text/html; charset=utf-8", false),
  asset(favicon, "image/svg+xml", false),
  asset(JSON.stringify(MANIFEST), "application/manifest+json; charset=utf-8", false),
  asset(SERVICE_WORKER, "text/javascript; charset=utf-8", false),
  asset(png(icon192), "image/png", false),
  asset(png(icon512), "image/png", false),
  asset(pushWorker, "text/javascript; charset=utf-8", false),
]);

export const ASSETS: Record<string, Asset> = {
  ...chunkAssets,
  "/": index,
  "/assets/app.js": js,
  "/assets/app.css": css,
  "/assets/first.css": first,
  "/assets/terminal.js": terminal,
  "/favicon.svg": icon,
  "/manifest.webmanifest": manifest,
  // At the root so its scope is the whole app.
  "/sw.js": serviceWorker,
  "/icons/icon-192.png": png192,
  "/icons/icon-512.png": png512,
  /** Web Push handler: imported by the app's service worker, or registered alone. */
  "/push_sw.js": push,
};

/** Served without a token: fetched without cookies (manifest, icons) or holding nothing private. */
export const PUBLIC_ASSETS: ReadonlySet<string> = new Set([
  "/favicon.svg",
  "/manifest.webmanifest",
  "/sw.js",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
]);
