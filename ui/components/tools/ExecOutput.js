/**
 * The monospace output box of a command. It follows the tail (scrolled to the end
 * when shown — also when a collapsed turn opens — and whenever the text grows) until
 * the reader scrolls up; scrolling back to the end resumes following. Empty output
 * reads "No output.".
 */
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";

const NEAR_END_PX = 24;

/** @param {{text: string, error?: boolean}} props */
export function ExecOutput({ text, error = false }) {
  const ref = useRef(/** @type {HTMLPreElement|null} */ (null));
  const follow = useRef(true);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  }, [text]);
  // Rendered inside a collapsed turn it may have no size yet (browsers without
  // `hidden=until-found` hide it with display: none): follow again once shown.
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver !== "function") return;
    const ro = new ResizeObserver(() => {
      if (follow.current) el.scrollTop = el.scrollHeight;
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [!text]);
  if (!text) {
    return html`<p class="exec-empty" data-testid="exec-output" data-empty="true">${
      t("tool.noOutput")
    }</p>`;
  }
  return html`
    <pre
      ref=${ref}
      class=${`exec-out${error ? " tool-out-error" : ""}`}
      data-testid="exec-output"
      tabindex="0"
      onScroll=${() => {
        const el = ref.current;
        if (el) follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_END_PX;
      }}
    >${text}</pre>
  `;
}
