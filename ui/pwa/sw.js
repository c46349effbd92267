/**
 * The installable app's service worker. `SHELL` (the versioned bundle, stylesheet,
 * icons, manifest) and `CACHE` are prepended by server/http/assets.ts, so a new build
 * is a new worker with a new cache. It caches the app shell only — never API data,
 * the WebSocket or MCP — and answers a page load that cannot reach the server with an
 * "offline — reconnecting" page that reloads as soon as the server answers again.
 */
/* global SHELL, CACHE, importScripts */

// Web Push (notifications when a task needs you or finishes) lives in its own file.
importScripts("/push_sw.js");

/**
 * The app's lazily loaded chunks (`/assets/<build>/<name>.js`): kept in this version's
 * cache the first time a view is opened, so it opens offline too. Their folder changes
 * with every build, and the old version's cache goes with its worker.
 */
const isChunk = (path) => /^\/assets\/[0-9a-f]+\/[\w.-]+\.js$/.test(path);

/** Paths whose answers are live data: always from the network, never stored. */
const isLive = (path) => path.startsWith("/api/") || path === "/ws" || path === "/mcp";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== location.origin || isLive(url.pathname)) return;
  if (req.mode === "navigate") {
    event.respondWith(fetch(req).catch(() => offlinePage()));
    return;
  }
  if (SHELL.includes(url.pathname + url.search)) {
    event.respondWith(caches.match(req).then((hit) => hit ?? fetch(req)));
  } else if (isChunk(url.pathname)) {
    event.respondWith(
      caches.open(CACHE).then(async (cache) => {
        const hit = await cache.match(req);
        if (hit) return hit;
        const res = await fetch(req);
        if (res.ok) await cache.put(req, res.clone());
        return res;
      }),
    );
  }
});

function offlinePage() {
  const html = `<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><title>ReinAgent — offline</title>
<style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;padding:1rem;text-align:center}
h1{font-size:1.25rem;font-weight:600}p{opacity:.75}</style></head>
<body><main data-testid="offline-page"><h1 id="t">Offline — reconnecting…</h1>
<p id="d">ReinAgent cannot be reached. This page reloads as soon as it answers again.</p></main>
<script>
if ((navigator.language || "").startsWith("zh")) {
  document.getElementById("t").textContent = "离线 — 正在重新连接…";
  document.getElementById("d").textContent = "无法连接 ReinAgent。恢复后此页面会自动重新加载。";
}
// Any answer (even 401) means the server is back.
const tick = () => fetch("/api/health", { cache: "no-store" }).then(() => location.reload(), () => setTimeout(tick, 2000));
setTimeout(tick, 2000);
addEventListener("online", tick);
</script></body></html>`;
  return new Response(html, {
    status: 503,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}
