/**
 * A user message: a right-aligned bubble with the text as typed (no Markdown), plus
 * chips for attached images and files. Below it, its actions: on wide screens a
 * "Rewind code to before this turn" button shown on hover or focus (always where
 * there is no hover); on phones a visible ⋯ menu (a bottom sheet). Unavailable while
 * the task runs or the connection is down.
 *
 * @typedef {import("../../server/protocol.ts").Entry} Entry
 */
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { connState } from "../state/connection.js";
import { openRewind } from "../state/rewind.js";
import { isRunning } from "../state/run_actions.js";
import { IconMore, IconRewind } from "./interact/InteractIcons.js";
import { Menu } from "./Menu.js";
import { MenuItem } from "./MenuItem.js";

/** @param {{entryId: string}} props */
function MessageActions({ entryId }) {
  const running = isRunning.value;
  const off = running || connState.value !== "open";
  const why = running ? t("rewind.disabledRunning") : t("rewind.desc");
  return html`
    <div class="msg-actions" data-testid="msg-actions">
      <button
        type="button"
        class="icon-btn msg-act"
        data-testid="rewind-turn"
        aria-label=${t("rewind.action")}
        title=${running ? why : t("rewind.action")}
        disabled=${off}
        onClick=${() => openRewind(entryId)}
      >
        <${IconRewind} size=${15} />
      </button>
      <div class="msg-menu">
        <${Menu}
          testid="msg-menu"
          title=${t("msg.actions")}
          value=""
          tone="msg-more"
          button=${html`<${IconMore} size=${18} />`}
        >
          ${(/** @type {() => void} */ close) =>
            html`
              <${MenuItem}
                role="menuitem"
                testid="rewind-turn-item"
                checked=${false}
                disabled=${off}
                icon=${html`<${IconRewind} size=${18} />`}
                title=${t("rewind.action")}
                desc=${why}
                onSelect=${() => {
                  close();
                  openRewind(entryId);
                }}
              />
            `}
        <//>
      </div>
    </div>
  `;
}

/** @param {{entry: Entry}} props */
export function UserMessage({ entry }) {
  return html`
    <article
      class="entry entry-user"
      data-testid="entry"
      data-role="user"
      data-entry-id=${entry.id}
      data-status=${entry.status}
    >
      <div class="bubble">
        ${entry.parts.map((p) => {
          const name = String(p.data?.name ?? p.data?.path ?? "?");
          if (p.type === "image") return html`<div class="part-chip">${t("part.image")}</div>`;
          if (p.type === "file") {
            return html`<div class="part-chip">${t("part.file", { name })}</div>`;
          }
          return html`<div class="part-text">${p.text ?? ""}</div>`;
        })}
      </div>
      <${MessageActions} entryId=${entry.id} />
    </article>
  `;
}
