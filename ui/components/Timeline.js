/**
 * The conversation of the shown task. Follows the bottom while the reader is there;
 * scrolling up stops following until they come back down.
 */
import { useLayoutEffect, useRef } from "preact/hooks";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { lang } from "../state/prefs.js";
import { currentId, entries, entriesTotal, timelineStatus } from "../state/tasks.js";
import { EntryView } from "./EntryView.js";

const NEAR_BOTTOM_PX = 80;

export function Timeline() {
  const ref = useRef(/** @type {HTMLDivElement|null} */ (null));
  const follow = useRef(true);
  const shownId = useRef(/** @type {string|null} */ (null));
  const list = entries.value;
  const status = timelineStatus.value;
  const id = currentId.value;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (shownId.current !== id) {
      shownId.current = id;
      follow.current = true;
    }
    if (follow.current) el.scrollTop = el.scrollHeight;
  }, [list, id]);

  const onScroll = () => {
    const el = ref.current;
    if (el) follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
  };
  const older = entriesTotal.value - list.length;

  return html`
    <div
      class="timeline"
      ref=${ref}
      onScroll=${onScroll}
      role="log"
      aria-label=${t("timeline.label")}
      data-testid="timeline"
    >
      <div class="timeline-inner">
        ${older > 0 && html`<p class="timeline-note">${t("timeline.older", { count: older })}</p>`}
        ${list.map((e) => html`<${EntryView} key=${e.id} entry=${e} lang=${lang.value} />`)}
        ${list.length === 0 &&
          html`<p class="timeline-note">
            ${status === "loading" ? t("timeline.loading") : t("timeline.empty")}
          </p>`}
      </div>
    </div>
  `;
}
