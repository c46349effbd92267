/**
 * Notices above the conversation: the store banner (persistent), a protocol mismatch,
 * the reconnecting line, approvals of other tasks, approvals to recover after a
 * restart, and dismissible error notices.
 */
import { PROTOCOL_VERSION } from "../../protocol/index.ts";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { attempt, connState, protocolMismatch, storeHealth } from "../state/connection.js";
import { dismissNotice, notices } from "../state/ui.js";
import { ApprovalBanner } from "./ApprovalBanner.js";
import { IconClose } from "./Icons.js";
import { RecoveryBanner } from "./RecoveryBanner.js";
import { SafetyBanner } from "./SafetyBanner.js";
import { McpWorkspaceBanner } from "./mcp/McpWorkspaceBanner.js";
import { HooksBanner } from "./hooks/HooksBanner.js";
import { NotifyBanner } from "./notify/NotifyBanner.js";

export function Banners() {
  const store = storeHealth.value;
  return html`
    <div class="banners">
      ${store && !store.ok &&
        html`
          <div class="banner banner-danger" role="alert" data-testid="store-banner">
            <p>${t("store.banner", { error: store.error || t("store.unknownError") })}</p>
            <p class="banner-sub">${t("store.path", { path: store.path })}</p>
          </div>
        `}
      ${protocolMismatch.value !== null &&
        html`
          <div class="banner banner-warn" role="alert" data-testid="protocol-banner">
            ${t("protocol.mismatch", { server: protocolMismatch.value, client: PROTOCOL_VERSION })}
          </div>
        `}
      ${connState.value === "reconnecting" &&
        html`
          <div class="conn-line" role="status" data-testid="reconnecting">
            <span class="spinner" aria-hidden="true"></span>
            ${t("conn.reconnecting", { n: attempt.value })}
          </div>
        `}
      <${SafetyBanner} />
      <${RecoveryBanner} />
      <${ApprovalBanner} />
      <${NotifyBanner} />
      <${McpWorkspaceBanner} />
      <${HooksBanner} />
      ${notices.value.map((n) =>
        html`
          <div class="banner banner-error" role="alert" data-testid="error-notice" key=${n.id}>
            <p>${t(/** @type {any} */ (n.key), { message: n.message })}</p>
            <button
              type="button"
              class="icon-btn"
              aria-label=${t("error.dismiss")}
              title=${t("error.dismiss")}
              onClick=${() => dismissNotice(n.id)}
            >
              <${IconClose} size=${16} />
            </button>
          </div>
        `
      )}
    </div>
  `;
}
