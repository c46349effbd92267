/** A copy-to-clipboard icon button that says "Copied" (or "Copy failed") for a moment. */
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { copyText } from "../../state/history.js";
import { IconCheck, IconCopy } from "./HistoryIcons.js";

/** @param {{text: () => string, testid: string, cls?: string}} props */
export function CopyButton({ text, testid, cls = "" }) {
  const [state, setState] = useState(/** @type {""|"ok"|"fail"} */ (""));
  const timer = useRef(/** @type {ReturnType<typeof setTimeout>|undefined} */ (undefined));
  useEffect(() => () => clearTimeout(timer.current), []);
  const onClick = async () => {
    const ok = await copyText(text());
    setState(ok ? "ok" : "fail");
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState(""), 1500);
  };
  const label = state === "ok"
    ? t("history.copied")
    : state === "fail"
    ? t("history.copyFailed")
    : t("history.copy");
  return html`
    <button
      type="button"
      class=${`icon-btn hist-act ${cls}`}
      data-testid=${testid}
      data-copied=${state}
      aria-label=${label}
      title=${label}
      onClick=${onClick}
    >
      ${state === "ok" ? html`<${IconCheck} size=${15} />` : html`<${IconCopy} size=${15} />`}
      <span class="sr-only" aria-live="polite">${state ? label : ""}</span>
    </button>
  `;
}
