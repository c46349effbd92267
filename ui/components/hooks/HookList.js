/**
 * The hooks of one config file as a list: event, tool matcher, timeout and the command
 * itself (what will run is always shown before it is trusted).
 *
 * @typedef {import("../../../protocol/index.ts").HookView} HookView
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";

/** @param {{hooks: HookView[]}} props */
export function HookList({ hooks }) {
  return html`
    <ul class="hook-list" data-testid="hook-list">
      ${hooks.map((h, i) =>
        html`
          <li class="hook-item" key=${i} data-testid="hook-item">
            <div class="hook-item-head">
              <span class="badge hook-event">${h.event}</span>
              ${h.matcher && html`<span class="hook-matcher">${h.matcher}</span>`}
              <span class="hook-timeout">${t("hooks.timeout", { s: h.timeoutMs / 1000 })}</span>
            </div>
            <code class="hook-command" data-testid="hook-command">${h.command}</code>
          </li>
        `
      )}
    </ul>
  `;
}
