/**
 * A thinking part: "Thinking…" while it streams, "Thought for N s" after; collapsed
 * by default, the text in a max-height scroll box when expanded.
 *
 * @typedef {import("../../protocol/index.ts").Part} Part
 */
import { useState } from "preact/hooks";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { fmtDuration } from "./format.js";
import { IconBrain, IconChevron } from "./RunIcons.js";

/** @param {{part: Part, live: boolean}} props */
export function ThinkingBlock({ part, live }) {
  const [open, setOpen] = useState(false);
  const started = Number(part.data?.startedAt);
  const ended = Number(part.data?.endedAt);
  const label = live
    ? t("thinking.live")
    : started && ended && ended >= started
    ? t("thinking.done", { time: fmtDuration(ended - started) })
    : t("thinking.doneNoTime");
  return html`
    <div class="think" data-testid="thinking" data-live=${live ? "true" : "false"}>
      <button
        type="button"
        class="think-head"
        aria-expanded=${open ? "true" : "false"}
        onClick=${() => setOpen(!open)}
      >
        <span class=${live ? "think-icon live" : "think-icon"}><${IconBrain} size=${15} /></span>
        <span class="think-label">${label}</span>
        <span class="chev"><${IconChevron} size=${14} /></span>
      </button>
      ${open && html`<div class="think-body" data-testid="thinking-text">${part.text ?? ""}</div>`}
    </div>
  `;
}
