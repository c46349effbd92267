/**
 * What the hooks of a turn reported — a hook that failed or timed out, workspace hooks
 * that did not run because they are not trusted, a prompt a hook blocked — shown on the
 * turn even when its steps are folded.
 *
 * @typedef {import("../../../protocol/index.ts").Entry} Entry
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";

/** @param {{entries: Entry[]}} props */
export function HookNotes({ entries }) {
  return html`
    <ul class="hook-notes" data-testid="hook-notes">
      ${entries.map((e) =>
        html`
          <li class="hook-note" key=${e.id} data-testid="hook-note" data-level=${e.meta.level}>
            <span class="hook-note-label">${t("hooks.note")}</span>
            <span class="hook-note-text">${e.parts.map((p) => p.text).join("\n")}</span>
            ${e.meta.command &&
              html`<code class="hook-note-command">${String(e.meta.command)}</code>`}
          </li>
        `
      )}
    </ul>
  `;
}
