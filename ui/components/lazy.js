/**
 * Components whose code is fetched the first time they are shown: the bundle splits
 * each `import()` into a chunk of its own, so the first screen does not wait for views
 * it does not show (settings, the palette, the panel's panes, the terminal).
 *
 * The first screen's script and stylesheet hold only the strings and rules the first
 * screen uses; a view shown on demand waits for the rest of both beside its own code.
 *
 * A chunk that cannot be fetched (offline, or the server was updated and the old
 * build's chunks are gone) shows that, with a reload button, instead of an empty space.
 *
 * @example
 * // App.js: Settings is fetched the first time it is shown.
 * const SettingsView = lazy(() => import(`./settings/SettingsView.js`), "SettingsView");
 */
import { signal } from "@preact/signals";
import { html } from "../html.js";
import { stringsReady, t } from "../i18n/index.js";

/** @type {Promise<void>|null} */
let styles = null;

/**
 * Adds the whole stylesheet (named by the page, `<meta name="reinagent-styles">`) once;
 * resolves when it applies. It repeats the first screen's rules in their order, so the
 * cascade is that of one stylesheet. A page without the meta has it all already.
 * @returns {Promise<void>}
 */
export function fullStyles() {
  if (typeof document === "undefined") return Promise.resolve();
  const href = document.querySelector("meta[name=reinagent-styles]")?.getAttribute("content");
  if (!href) return Promise.resolve();
  styles ??= new Promise((resolve, reject) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.onload = () => resolve();
    link.onerror = () => {
      link.remove();
      styles = null; // the next view shown tries again
      reject(new Error(`could not load ${href}`));
    };
    document.head.append(link);
  });
  return styles;
}

/**
 * @param {() => Promise<Record<string, any>>} load
 * @param {string} name the export to render
 * @returns {((props: Record<string, any>) => any) & {preload: () => Promise<void>}}
 */
export function lazy(load, name) {
  /** @type {import("@preact/signals").Signal<any>} */
  const loaded = signal(null);
  const failed = signal(false);
  /** @type {Promise<void>|null} */
  let pending = null;
  const preload = () => {
    pending ??= Promise.all([load(), stringsReady(), fullStyles()]).then(
      ([mod]) => {
        loaded.value = mod[name];
      },
      (e) => {
        console.error(`reinagent: could not load ${name}`, e);
        pending = null;
        failed.value = true;
      },
    );
    return pending;
  };
  /** @param {Record<string, any>} props */
  function Lazy(props) {
    const C = loaded.value;
    if (C) return html`<${C} ...${props} />`;
    if (failed.value) return html`<${LoadFailed} />`;
    preload();
    return null;
  }
  Lazy.preload = preload;
  return Lazy;
}

function LoadFailed() {
  return html`
    <div class="lazy-failed" role="alert" data-testid="lazy-failed">
      <span>${t("lazy.failed")}</span>
      <button type="button" class="btn" onClick=${() => location.reload()}>
        ${t("lazy.reload")}
      </button>
    </div>
  `;
}
