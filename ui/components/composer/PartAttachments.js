/**
 * Attachments of a sent user message: image thumbnails (click opens the full image in
 * a new tab) and file chips with name and size.
 *
 * @typedef {import("../../../protocol/index.ts").Part} Part
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { formatSize, uploadUrl } from "../../state/attachments.js";
import { IconFile } from "./ComposerIcons.js";

/** @param {{parts: Part[]}} props */
export function PartAttachments({ parts }) {
  // Images first (a row of thumbnails), then the file chips.
  const list = [
    ...parts.filter((p) => p.type === "image"),
    // Mentioned files are chips in the text (MessageText), not attachments.
    ...parts.filter((p) => p.type === "file" && !p.data?.mention),
  ];
  if (!list.length) return null;
  return html`
    <ul class="msg-atts" data-testid="message-attachments">
      ${list.map((p) => {
        const id = String(p.data?.id ?? "");
        const name = String(p.data?.name ?? p.data?.path ?? "?");
        const size = Number(p.data?.size ?? 0);
        if (p.type === "image" && id) {
          return html`
            <li class="msg-att msg-att-image">
              <a href=${uploadUrl(id)} target="_blank" rel="noopener" title=${name}>
                <img src=${uploadUrl(id)} alt=${t("attach.imageAlt", {
                  name,
                })} data-testid="message-image" loading="lazy" />
              </a>
            </li>
          `;
        }
        return html`
          <li class="msg-att msg-att-file" data-testid="message-file" title=${name}>
            <span aria-hidden="true"><${IconFile} size=${16} /></span>
            <span class="msg-att-name">${name}</span>
            ${size > 0 && html`<span class="msg-att-size">${formatSize(size)}</span>`}
          </li>
        `;
      })}
    </ul>
  `;
}
