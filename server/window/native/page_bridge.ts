/**
 * What the native window injects into the page, and the messages the page sends back
 * through the `reinagent` script message handler: the app's first paint (how long the
 * window took to show the app) and a request for the system's folder picker
 * (`window.reinagentNative.pickFolder(title)`) or the clipboard's image after a paste
 * (`window.reinagentNative.clipboardImage()`, see clipboard_image.ts), both answered
 * through `window.__reinagentNativeReply`. Anything else a page posts is ignored.
 */

/** Longest folder-picker title taken from the page. */
export const MAX_PICKER_TITLE = 200;

/** Posts `{kind:"painted"}` once `#app` has content and a frame was drawn with it. */
export const PAGE_BRIDGE_SCRIPT = `(() => {
  const post = (m) => window.webkit?.messageHandlers?.reinagent?.postMessage(JSON.stringify(m));
  const waiting = new Map();
  let next = 0;
  const ask = (m) => new Promise((resolve) => {
    const id = ++next;
    waiting.set(id, resolve);
    post({ ...m, id });
  });
  Object.defineProperty(window, "reinagentNative", {
    value: Object.freeze({
      pickFolder: (title) => ask({ kind: "pick-folder", title: String(title ?? "") }),
      clipboardImage: () => ask({ kind: "clipboard-image" }),
    }),
  });
  Object.defineProperty(window, "__reinagentNativeReply", {
    value: (id, value) => {
      const resolve = waiting.get(id);
      waiting.delete(id);
      resolve?.(typeof value === "string" || (value && typeof value === "object") ? value : null);
    },
  });
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
export type PageMessage =
  | { kind: "painted"; mountedMs: number; pageMs: number }
  | { kind: "pick-folder"; id: number; title: string }
  | { kind: "clipboard-image"; id: number };

/** A message from the page, or null for anything not understood (the page is not trusted). */
export function parsePageMessage(text: string): PageMessage | null {
  if (text.length > 10_000) return null;
  try {
    const m = JSON.parse(text);
    if (m && typeof m === "object" && m.kind === "painted") {
      const num = (v: unknown) => typeof v === "number" && Number.isFinite(v) ? Math.round(v) : -1;
      return { kind: "painted", mountedMs: num(m.mounted), pageMs: num(m.at) };
    }
    if (m && typeof m === "object" && m.kind === "pick-folder") {
      if (!Number.isSafeInteger(m.id) || m.id < 1 || typeof m.title !== "string") return null;
      return { kind: "pick-folder", id: m.id, title: m.title.slice(0, MAX_PICKER_TITLE) };
    }
    if (m && typeof m === "object" && m.kind === "clipboard-image") {
      return Number.isSafeInteger(m.id) && m.id >= 1 ? { kind: "clipboard-image", id: m.id } : null;
    }
  } catch { /* not JSON */ }
  return null;
}
