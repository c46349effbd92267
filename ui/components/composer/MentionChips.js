/**
 * The files, folders and MCP resources the message mentions (chosen in the `@` picker),
 * as chips above the text box; each × removes its `@path` token from the text. On send
 * the server attaches what they name (protocol/mentions.ts). A resource's chip shows its
 * name and server; its token (`server:uri`) is the tooltip.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { resourceMention } from "../../../protocol/index.ts";
import { composerMentions, pickedResources, removeMention } from "../../state/suggest.js";
import { markDraftDirty } from "../../state/ui.js";
import { IconX } from "../RunIcons.js";
import { IconFile, IconFolder, IconResource } from "../tools/ToolIcons.js";

/** @param {string} path */
function chipLabel(path) {
  const ref = resourceMention(path);
  if (!ref) return null;
  const picked = pickedResources.value.get(path);
  return { name: picked?.name ?? ref.uri, server: ref.server };
}

export function MentionChips() {
  const list = composerMentions.value;
  if (!list.length) return null;
  return html`
    <ul class="mention-chips" aria-label=${t("mention.chips")} data-testid="mention-chips">
      ${list.map((m) => {
        const dir = m.path.endsWith("/");
        const res = chipLabel(m.path);
        return html`
          <li class="mention-chip" key=${m.path} data-testid="mention-chip" title=${m.path}
            data-kind=${res ? "resource" : dir ? "dir" : "file"}>
            <span aria-hidden="true">${res
              ? html`<${IconResource} size=${14} />`
              : dir
              ? html`<${IconFolder} size=${14} />`
              : html`<${IconFile} size=${14} />`}</span>
            ${res
              ? html`
                <span class="mention-chip-path">${res.name}</span>
                <span class="mention-chip-server">${res.server}</span>
              `
              : html`<span class="mention-chip-path">${m.path}</span>`}
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
