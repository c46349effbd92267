/**
 * A fenced code block of rendered Markdown: language label, copy button, monospace
 * body with horizontal scrolling. The text is a text node (never HTML).
 */
import { useEffect, useState } from "preact/hooks";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { IconCheck, IconCopy } from "./RunIcons.js";

/**
 * Copies text; falls back to a hidden textarea where the Clipboard API is missing
 * (plain-http pages on a phone are not a secure context).
 * @param {string} text
 */
export async function copyText(text) {
  if (globalThis.isSecureContext && navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const ta = document.createElement("textarea");
  ta.value = text;
  ta.setAttribute("readonly", "");
  ta.style.position = "fixed";
  ta.style.opacity = "0";
  document.body.appendChild(ta);
  ta.select();
  const ok = document.execCommand("copy");
  ta.remove();
  if (!ok) throw new Error("copy was refused");
}

/** @param {{lang: string, text: string}} props */
export function CodeBlock({ lang, text }) {
  const [state, setState] = useState(/** @type {"idle"|"copied"|"failed"} */ ("idle"));
  useEffect(() => {
    if (state === "idle") return;
    const id = setTimeout(() => setState("idle"), 1600);
    return () => clearTimeout(id);
  }, [state]);
  const copy = () =>
    copyText(text).then(() => setState("copied"), (e) => {
      console.warn("reinagent: copy failed", e);
      setState("failed");
    });
  const label = state === "copied"
    ? t("md.copied")
    : state === "failed"
    ? t("md.copyFailed")
    : t("md.copy");
  return html`
    <div class="md-code" data-testid="code-block" data-lang=${lang}>
      <div class="md-code-head">
        <span class="md-code-lang">${lang || t("md.code")}</span>
        <button type="button" class="md-copy" data-testid="copy-code" onClick=${copy}>
          ${state === "copied"
            ? html`<${IconCheck} size=${14} />`
            : html`<${IconCopy} size=${14} />`}
          <span aria-live="polite">${label}</span>
        </button>
      </div>
      <pre class="md-pre"><code>${text}</code></pre>
    </div>
  `;
}
