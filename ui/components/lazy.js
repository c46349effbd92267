/**
 * Components whose code is fetched the first time they are shown: the bundle splits
 * each `import()` into a chunk of its own, so the first screen does not wait for views
 * it does not show (settings, the palette, the panel's panes, the terminal).
 *
 * A chunk that cannot be fetched (offline, or the server was updated and the old
 * build's chunks are gone) shows that, with a reload button, instead of an empty space.
 *
 * @example
 * const SettingsView = lazy(() => import("./settings/SettingsView.js"), "SettingsView");
 */
import { signal } from "@preact/signals";
import { html } from "../html.js";
import { t } from "../i18n/index.js";

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
    pending ??= load().then(
      (mod) => {
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
