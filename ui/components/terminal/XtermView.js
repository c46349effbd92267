/**
 * One terminal shown with xterm.js: fits its box (and tells the server the size),
 * sends typed keys, receives output through `attachView`. Copy: select and Ctrl+Shift+C
 * (or the dock's Copy); paste: Ctrl+Shift+V, the browser's paste, or the dock's Paste.
 */
import { shortcutFor } from "../../state/palette_model.js";
import { shortcutList } from "../../state/shortcuts.js";
import { isMac } from "../../state/palette.js";
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { attachView, resizeTerminal, sendInput, termError } from "../../state/terminal.js";
import { loadXterm } from "./xterm_loader.js";

/** @typedef {import("@xterm/xterm").Terminal} Xterm */

/** The terminal shown now, for the dock's extra keys, copy and paste. */
/** @type {{term: Xterm|null, id: string}} */
export const shown = { term: null, id: "" };

/** xterm's colours from the stylesheet's tokens (00-tokens.css `--term-*`). */
function theme() {
  const css = getComputedStyle(document.documentElement);
  const v = (/** @type {string} */ name) => css.getPropertyValue(name).trim() || undefined;
  return {
    background: v("--term-bg"),
    foreground: v("--term-fg"),
    cursor: v("--term-fg"),
    selectionBackground: v("--term-selection"),
  };
}

/** @param {{id: string}} props */
export function XtermView({ id }) {
  const host = useRef(/** @type {HTMLDivElement|null} */ (null));
  // Until the shell prints its first byte the screen is empty: say that it is starting
  // (a slow start-up file can take seconds) instead of showing a black box.
  const [started, setStarted] = useState(false);

  useEffect(() => {
    let disposed = false;
    /** @type {(() => void)[]} */
    const cleanups = [];
    loadXterm().then((X) => {
      const el = host.current;
      if (disposed || !el) return;
      const term = new X.Terminal({
        cursorBlink: true,
        fontSize: 13,
        fontFamily: 'ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace',
        scrollback: 5000,
        theme: theme(),
      });
      const fit = new X.FitAddon();
      term.loadAddon(fit);
      term.loadAddon(new X.WebLinksAddon());
      term.open(el);
      term.attachCustomKeyEventHandler((e) => {
        if (e.type !== "keydown" || !e.ctrlKey || !e.shiftKey) return true;
        if (e.code === "KeyC") {
          const sel = term.getSelection();
          if (sel) navigator.clipboard?.writeText(sel).catch(() => {});
          return false;
        }
        // Paste: the browser's event reaches xterm. The palette's shortcut (Ctrl+Shift+P
        // unless rebound) is left to the page.
        return e.code !== "KeyV" &&
          shortcutFor(e, { editable: true, mac: isMac }, shortcutList.value) === null;
      });
      const refit = () => {
        if (el.clientWidth > 0 && el.clientHeight > 0) fit.fit();
      };
      refit();
      resizeTerminal(id, term.cols, term.rows);
      const onData = term.onData((d) => sendInput(id, d));
      const onResize = term.onResize((s) => resizeTerminal(id, s.cols, s.rows));
      const stop = attachView(id, {
        reset: () => term.reset(),
        write: (s, parsed) => {
          if (s) setStarted(true);
          term.write(s, parsed);
        },
      });
      const ro = new ResizeObserver(refit);
      ro.observe(el);
      shown.term = term;
      shown.id = id;
      term.focus();
      cleanups.push(() => {
        ro.disconnect();
        stop();
        onData.dispose();
        onResize.dispose();
        if (shown.term === term) shown.term = null;
        term.dispose();
      });
    }).catch((e) => {
      termError.value = t("terminal.loadFailed", { error: String(e?.message ?? e) });
    });
    return () => {
      disposed = true;
      for (const c of cleanups) c();
    };
  }, [id]);

  return html`
    <div class="term-view" data-testid="terminal-view" data-terminal-id=${id}
      ref=${host}>
      ${!started &&
        html`<p class="term-starting" data-testid="terminal-starting" aria-live="polite">
          ${t("terminal.starting")}
        </p>`}
    </div>
  `;
}
