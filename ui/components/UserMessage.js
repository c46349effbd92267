/**
 * A user message: a right-aligned bubble with the text as typed (no Markdown), plus
 * chips for attached images and files.
 *
 * @typedef {import("../../server/protocol.ts").Entry} Entry
 */
import { html } from "../html.js";
import { t } from "../i18n/index.js";

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
    </article>
  `;
}
