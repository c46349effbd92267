/**
 * What the native window injects into the page, and the messages the page sends back
 * through the `reinagent` script message handler. Only the app's first paint for now (how
 * long the window took to show the app); anything else a page posts is ignored.
 */

/** Posts `{kind:"painted"}` once `#app` has content and a frame was drawn with it. */
export const PAGE_BRIDGE_SCRIPT = `(() => {
  const post = (m) => window.webkit?.messageHandlers?.reinagent?.postMessage(JSON.stringify(m));
  const painted = () => {
    const mounted = performance.now();
    requestAnimationFrame(() => requestAnimationFrame(() => post({ kind: "painted", mounted, at: performance.now() })));
  };
  const app = document.getElementById("app");
  if (!app) return;
  if (app.childElementCount) return painted();
  const seen = new MutationObserver(() => {
    if (!app.childElementCount) return;
    seen.disconnect();
    painted();
  });
  seen.observe(app, { childList: true });
})();`;

/** Times in ms since the page's navigation started (-1: not given). */
export type PageMessage = { kind: "painted"; mountedMs: number; pageMs: number };

/** A message from the page, or null for anything not understood (the page is not trusted). */
export function parsePageMessage(text: string): PageMessage | null {
  if (text.length > 10_000) return null;
  try {
    const m = JSON.parse(text);
    if (m && typeof m === "object" && m.kind === "painted") {
      const num = (v: unknown) => typeof v === "number" && Number.isFinite(v) ? Math.round(v) : -1;
      return { kind: "painted", mountedMs: num(m.mounted), pageMs: num(m.at) };
    }
  } catch { /* not JSON */ }
  return null;
}
