/**
 * An `error` entry: category badge, message, friendly hint, the raw
 * chain (status, URL, upstream text) behind "Details", and Retry (`task.continue`).
 *
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 * @typedef {{category: string, message: string, status: number|null, url: string|null,
 *   upstream: string|null, hint: string, chain: string[]}} ProviderErrorInfo
 *   (agent/providers/errors.ts, as stored in `meta.error`)
 * @typedef {import("../i18n/index.js").MsgKey} MsgKey
 */
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { continueRun, continuing } from "../state/run_actions.js";
import { IconAlert, IconRetry } from "./RunIcons.js";

const CATEGORIES = [
  "auth",
  "balance",
  "rate-limit",
  "server",
  "network",
  "timeout",
  "request",
  "aborted",
  "unknown",
];

/** @param {{entry: Entry, canRetry: boolean}} props */
export function ErrorLine({ entry, canRetry }) {
  const info = /** @type {Partial<ProviderErrorInfo>} */ (entry.meta?.error ?? {});
  const category = CATEGORIES.includes(String(info.category)) ? String(info.category) : "unknown";
  const message = info.message || entry.parts[0]?.text || t("err.unknown");
  const chain = Array.isArray(info.chain) ? info.chain : [];
  const hasDetails = info.status != null || info.url || info.upstream || chain.length > 0;
  return html`
    <article
      class="err-line"
      data-testid="error-line"
      data-role="error"
      data-entry-id=${entry.id}
      data-category=${category}
    >
      <div class="err-top">
        <span class="err-icon"><${IconAlert} size=${16} /></span>
        <span class=${`err-badge err-${category}`} data-testid="error-badge">${t(
          /** @type {MsgKey} */ (`err.${category}`),
        )}</span>
        <span class="err-msg" data-testid="error-message">${message}</span>
      </div>
      ${info.hint && html`<p class="err-hint">${info.hint}</p>`}
      ${hasDetails &&
        html`
          <details class="err-details" data-testid="error-details">
            <summary>${t("err.details")}</summary>
            <dl>
              ${info.status != null && html`
                <dt>${t("err.status")}</dt>
                <dd>${info.status}</dd>
              `}
              ${info.url && html`
                <dt>${t("err.url")}</dt>
                <dd class="mono">${info.url}</dd>
              `}
              ${info.upstream &&
                html`
                  <dt>${t("err.upstream")}</dt>
                  <dd>
                    <pre class="err-pre">${info.upstream}</pre>
                  </dd>
                `}
              ${chain.length > 0 &&
                html`
                  <dt>${t("err.chain")}</dt>
                  <dd>
                    <ol class="err-chain">${chain.map((c) => html`<li class="mono">${c}</li>`)}</ol>
                  </dd>
                `}
            </dl>
          </details>
        `}
      ${canRetry &&
        html`
          <div class="err-actions">
            <button
              type="button"
              class="btn btn-small"
              data-testid="retry"
              disabled=${continuing.value}
              onClick=${continueRun}
            >
              <${IconRetry} size=${14} /><span>${t("err.retry")}</span>
            </button>
          </div>
        `}
    </article>
  `;
}
