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
  if (hooks.length === 0) return html`<p class="hook-none">${t("hooks.none")}</p>`;
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

/**
 * A source's hooks: as they are now and, while a change waits for review, the trusted
 * ones that still run.
 * @param {{source: import("../../../protocol/index.ts").HookSource}} props
 */
export function SourceHooks({ source }) {
  const kept = source.trustedHooks;
  if (!kept?.length) return html`<${HookList} hooks=${source.hooks} />`;
  return html`
    <p class="hook-list-label">${t("hooks.now")}</p>
    <${HookList} hooks=${source.hooks} />
    <p class="hook-list-label" data-testid="hooks-kept">${t("hooks.kept")}</p>
    <${HookList} hooks=${kept} />
  `;
}
