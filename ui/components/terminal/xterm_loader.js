/**
 * Loads xterm.js (ui/dist/terminal.js, a bundle of its own) the first time a terminal
 * is shown, and adds its stylesheet once. The URL (with its content hash) is in the
 * page's `reinagent-terminal-js` meta tag.
 *
 * @typedef {typeof import("../../terminal_entry.js")} XtermModule
 */

/** @type {Promise<XtermModule>|null} */
let loading = null;

/** @returns {Promise<XtermModule>} */
export function loadXterm() {
  loading ??= (async () => {
    const url = document.querySelector('meta[name="reinagent-terminal-js"]')?.getAttribute(
      "content",
    ) ?? "/assets/terminal.js";
    /** @type {XtermModule} */
    const mod = await import(url);
    const style = document.createElement("style");
    style.dataset.xterm = "";
    style.textContent = mod.css;
    document.head.append(style);
    return mod;
  })();
  loading.catch(() => loading = null); // a failed load may be retried
  return loading;
}
