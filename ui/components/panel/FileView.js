/**
 * File preview in the right panel: line numbers and syntax highlighting; the server
 * sends at most 256 KB / 10 000 lines (a note says so) and no text for a binary file
 * (size and type are shown instead). A file a rewind removed says so (who, when).
 *
 * @typedef {import("../../../protocol/index.ts").FilePreview} FilePreview
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { request } from "../../state/connection.js";
import { closePanel, fmtBytes } from "../../state/panel.js";
import { scrollToEntry } from "../../state/overlays.js";
import { clientText, shortTime } from "../format.js";
import { highlightHtml } from "./highlight.js";

/**
 * Loads an op's result; re-runs when `key` changes or `retry` is called.
 * @template T
 * @param {() => Promise<T>} load
 * @param {string} key
 */
export function useLoad(load, key) {
  const [nonce, setNonce] = useState(0);
  const [st, setSt] = useState(
    /** @type {{state: "loading"} | {state: "ok", value: T} | {state: "error", error: string}} */ ({
      state: "loading",
    }),
  );
  const shown = useRef("");
  useEffect(() => {
    let live = true;
    // A reload of the same thing keeps showing it (and the focused button) meanwhile.
    if (shown.current !== key) setSt({ state: "loading" });
    shown.current = key;
    load().then(
      (value) => live && setSt({ state: "ok", value }),
      (e) => live && setSt({ state: "error", error: String(e?.message ?? e) }),
    );
    return () => void (live = false);
  }, [key, nonce]);
  return { st, retry: () => setNonce((n) => n + 1) };
}

/** @param {{error: string, retry: () => void}} props */
export function PanelError({ error, retry }) {
  return html`
    <div class="rpanel-msg rpanel-error" role="alert" data-testid="panel-error">
      <p>${error}</p>
      <button type="button" class="btn" onClick=${retry}>${t("panel.retry")}</button>
    </div>
  `;
}

/** Line-numbered, highlighted code. @param {{text: string, lines: number, lang: string, label: string}} props */
export function CodeView({ text, lines, lang, label }) {
  const body = useMemo(() => highlightHtml(text, lang), [text, lang]);
  const numbers = useMemo(() => {
    const n = Math.max(1, lines);
    let s = "";
    for (let i = 1; i <= n; i++) s += i === n ? `${i}` : `${i}\n`;
    return s;
  }, [lines]);
  return html`
    <div class="code-view" data-testid="code-view" data-lang=${lang} role="region"
      aria-label=${label}
      tabindex="0">
      <pre class="code-gutter" aria-hidden="true" data-testid="line-numbers">${numbers}</pre>
      <pre class="code-text"><code dangerouslySetInnerHTML=${{ __html: body }}></code></pre>
    </div>
  `;
}

/** @param {{removed: NonNullable<FilePreview["removed"]>}} props */
function RemovedByRewind({ removed }) {
  return html`
    <div class="rpanel-msg" data-testid="panel-removed">
      <p>${t("panel.removedByRewind", { turn: removed.turnText })}</p>
      <p class="rpanel-when">${t("panel.removedWhen", {
        who: clientText(removed.by),
        time: shortTime(removed.at),
      })}</p>
      <button
        type="button"
        class="btn"
        data-testid="panel-show-rewind"
        onClick=${() => {
          closePanel();
          scrollToEntry(removed.entryId);
        }}
      >${t("panel.showRewind")}</button>
    </div>
  `;
}

/** @param {{taskId: string, path: string}} props */
export function FileView({ taskId, path }) {
  const { st, retry } = useLoad(
    () => request("file.preview", { taskId, path }),
    `${taskId}\n${path}`,
  );
  if (st.state === "loading") {
    return html`<p class="rpanel-msg" data-testid="panel-loading">${t("panel.loading")}</p>`;
  }
  if (st.state === "error") return html`<${PanelError} error=${st.error} retry=${retry} />`;
  const f = st.value;
  if (f.removed) return html`<${RemovedByRewind} removed=${f.removed} />`;
  if (f.binary) {
    return html`
      <div class="rpanel-msg" data-testid="panel-binary">
        <p>${t("panel.binary")}</p>
        <p class="rpanel-sub">${t("panel.binaryType", { size: fmtBytes(f.size), type: f.mime })}</p>
      </div>
    `;
  }
  return html`
    <div class="rpanel-bar" data-testid="panel-meta">
      <span>${tn("panel.meta", f.lines, { size: fmtBytes(f.size), lines: f.lines })}</span>
      <span class="rpanel-lang">${f.language || t("panel.plain")}</span>
      <button type="button" class="btn btn-small" data-testid="panel-reload"
        onClick=${retry}>${t("panel.reload")}</button>
    </div>
    ${f.truncated &&
      html`
        <p class="rpanel-note" data-testid="panel-truncated">
          ${f.truncated === "bytes"
            ? t("panel.truncatedBytes", {
              shown: fmtBytes(new TextEncoder().encode(f.text ?? "").length),
              size: fmtBytes(f.size),
            })
            : t("panel.truncatedLines", { n: f.lines })}
        </p>
      `}
    ${f.text === "" ? html`<p class="rpanel-msg">${t("panel.empty")}</p>` : html`
      <${CodeView}
        text=${f.text ?? ""}
        lines=${f.lines}
        lang=${f.language}
        label=${t("panel.codeLabel", { path: f.path })}
      />
    `}
  `;
}
