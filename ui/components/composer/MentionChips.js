/**
 * The files and folders the message mentions (chosen in the `@` picker), as chips
 * above the text box; each × removes its `@path` token from the text. On send the
 * server attaches what they name (protocol/mentions.ts).
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { composerMentions, removeMention } from "../../state/suggest.js";
import { markDraftDirty } from "../../state/ui.js";
import { IconX } from "../RunIcons.js";
import { IconFile, IconFolder } from "../tools/ToolIcons.js";

export function MentionChips() {
  const list = composerMentions.value;
  if (!list.length) return null;
  return html`
    <ul class="mention-chips" aria-label=${t("mention.chips")} data-testid="mention-chips">
      ${list.map((m) => {
        const dir = m.path.endsWith("/");
        return html`
          <li class="mention-chip" key=${m.path} data-testid="mention-chip" title=${m.path}>
            <span aria-hidden="true">${dir
              ? html`<${IconFolder} size=${14} />`
              : html`<${IconFile} size=${14} />`}</span>
            <span class="mention-chip-path">${m.path}</span>
            <button
              type="button"
              class="mention-chip-x"
              aria-label=${t("mention.remove", { path: m.path })}
              onClick=${() => {
                removeMention(m.path);
                markDraftDirty();
              }}
            >
              <${IconX} size=${12} />
            </button>
          </li>
        `;
      })}
    </ul>
  `;
}
