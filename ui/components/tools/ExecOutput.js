/**
 * The monospace output box of a command. It follows the tail (scrolled to the end
 * when shown — also when a collapsed turn opens — and whenever the text grows) until
 * the reader scrolls up; scrolling back to the end resumes following. Empty output
 * reads "No output.". Given `segments`, stderr parts are marked (colour, left rule and
 * a "stderr" label that is not copied with the text) and the omitted middle is a line.
 *
 * @typedef {import("../../state/exec_model.js").Segment} Segment
 */
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";

const NEAR_END_PX = 24;

/** @param {Segment} s */
const segText = (s) => "text" in s ? s.text : "";

/**
 * Without the final line break (like the result text), so no empty last line shows.
 * @param {Segment[]} list
 */
function trimEnd(list) {
  const last = list[list.length - 1];
  if (!last || !("text" in last) || !last.text.endsWith("\n")) return list;
  return [...list.slice(0, -1), { ...last, text: last.text.slice(0, -1) }];
}

/** @param {{segments: Segment[]}} props */
function Segments({ segments }) {
  return segments.map((s, i) => {
    if ("omitted" in s) {
      return html`<span class="exec-gap" data-testid="exec-gap">${
        t("tool.omittedBytes", { n: s.omitted })
      }</span>`;
    }
    if (s.stream !== "err") return s.text;
    // A stderr part that starts a line gets the label; one inside a line only the colour.
    const prev = i > 0 ? segText(segments[i - 1]) : "\n";
    const atLine = prev === "" || prev.endsWith("\n");
    return html`
      <span
        class=${`exec-err${atLine ? " exec-err-line" : ""}`}
        data-testid="exec-stderr"
        data-label=${t("tool.stderr")}
      >${s.text}</span>
    `;
  });
}

/** @param {{text?: string, segments?: Segment[] | null, error?: boolean}} props */
export function ExecOutput({ text: plain = "", segments: given = null, error = false }) {
  const segments = given && trimEnd(given);
  const text = segments ? segments.map(segText).join("") : plain;
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
      data-streams=${segments ? "split" : "merged"}
      tabindex="0"
      onScroll=${() => {
        const el = ref.current;
        if (el) follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_END_PX;
      }}
    >${segments ? html`<${Segments} segments=${segments} />` : text}</pre>
  `;
}
