/** The composer's "Attach files" button (a hidden file input behind it). */
import { useRef } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { addFiles, attachments } from "../../state/attachments.js";
import { markDraftDirty } from "../../state/ui.js";
import { COMPOSER_LIMITS } from "../../../protocol/index.ts";
import { IconPaperclip } from "./ComposerIcons.js";

export function AttachButton() {
  const input = useRef(/** @type {HTMLInputElement|null} */ (null));
  const full = attachments.value.length >= COMPOSER_LIMITS.attachments;
  const label = full ? t("attach.full", { max: COMPOSER_LIMITS.attachments }) : t("attach.button");
  return html`
    <span class="attach">
      <input
        ref=${input}
        type="file"
        multiple
        hidden
        data-testid="attach-input"
        onChange=${(/** @type {Event} */ e) => {
          const el = /** @type {HTMLInputElement} */ (e.currentTarget);
          addFiles([...(el.files ?? [])]);
          markDraftDirty();
          el.value = "";
        }}
      />
      <button
        type="button"
        class="icon-btn attach-btn"
        data-testid="attach"
        aria-label=${label}
        title=${label}
        disabled=${full}
        onClick=${() => input.current?.click()}
      >
        <${IconPaperclip} size=${18} />
      </button>
    </span>
  `;
}
