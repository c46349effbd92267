/**
 * A user message: a right-aligned bubble with the text as typed (no Markdown; its
 * `@` mentions as chips, see MessageText), plus chips for attached images and files. Below it, its actions: on wide screens a
 * "Rewind code to before this turn" button shown on hover or focus (always where
 * there is no hover); on phones a visible ⋯ menu (a bottom sheet). Unavailable while
 * the task runs or the connection is down.
 *
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 */
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { connState } from "../state/connection.js";
import { openRewind } from "../state/rewind.js";
import { isRunning } from "../state/run_actions.js";
import { IconMore, IconRewind } from "./interact/InteractIcons.js";
import { Menu } from "./Menu.js";
import { MenuItem } from "./MenuItem.js";
import { PartAttachments } from "./composer/PartAttachments.js";
import { copyText, editingId } from "../state/history.js";
import { CopyButton } from "./timeline/CopyButton.js";
import { IconCopy, IconEdit } from "./timeline/HistoryIcons.js";
import { MessageEditor } from "./timeline/MessageEditor.js";
import { MessageText } from "./timeline/MessageText.js";
import { ReadOnlyContext } from "./timeline/readonly.js";
import { useContext } from "preact/hooks";

/** @param {Entry} entry the text a user message was sent with */
const textOf = (entry) =>
  entry.parts.filter((p) => p.type === "text").map((p) => p.text ?? "").join("\n");

/** @param {{entryId: string, text: string}} props */
function MessageActions({ entryId, text }) {
  const running = isRunning.value;
  const off = running || connState.value !== "open";
  const why = running ? t("rewind.disabledRunning") : t("rewind.desc");
  const edit = () => (editingId.value = entryId);
  return html`
    <div class="msg-actions" data-testid="msg-actions">
      <${CopyButton} text=${() => text} testid="copy-message" cls="msg-act" />
      <button
        type="button"
        class="icon-btn msg-act"
        data-testid="edit-message"
        aria-label=${t("history.edit")}
        title=${running ? t("history.disabledRunning") : t("history.edit")}
        disabled=${off}
        onClick=${edit}
      >
        <${IconEdit} size=${15} />
      </button>
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
                testid="copy-message-item"
                checked=${false}
                icon=${html`<${IconCopy} size=${18} />`}
                title=${t("history.copy")}
                onSelect=${() => {
                  close();
                  copyText(text);
                }}
              />
              <${MenuItem}
                role="menuitem"
                testid="edit-message-item"
                checked=${false}
                disabled=${off}
                icon=${html`<${IconEdit} size=${18} />`}
                title=${t("history.edit")}
                desc=${running ? t("history.disabledRunning") : t("history.editHint")}
                onSelect=${() => {
                  close();
                  edit();
                }}
              />
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
  const readOnly = useContext(ReadOnlyContext);
  return html`
    <article
      class="entry entry-user"
      data-testid="entry"
      data-role="user"
      data-entry-id=${entry.id}
      data-status=${entry.status}
    >
      ${editingId.value === entry.id
        ? html`<${MessageEditor} entryId=${entry.id} initial=${textOf(entry)} />`
        : html`<div class="bubble">
        <${PartAttachments} parts=${entry.parts} />
        ${
          entry.parts.filter((p) => p.type !== "image" && p.type !== "file" && p.text).map((p, i) =>
            html`<${MessageText} entry=${entry} text=${p.text ?? ""} first=${i === 0} />`
          )
        }
      </div>`}
      ${editingId.value !== entry.id && !readOnly &&
        html`<${MessageActions} entryId=${entry.id} text=${textOf(entry)} />`}
    </article>
  `;
}
