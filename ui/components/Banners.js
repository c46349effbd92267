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
import { IconClose } from "./Icons.js";
import { NotifyBanner } from "./notify/NotifyBanner.js";
import { recoverable, waitingTasks } from "../state/approvals.js";
import { safetyNotices } from "../state/safety.js";
import { currentId } from "../state/tasks.js";
import { workspaceOffer } from "../state/mcp.js";
import { hookOffer } from "../state/hooks.js";
import { lazy } from "./lazy.js";

// Notices other than the connection's are chunks of their own, fetched when one is
// first shown.
const SafetyBanner = lazy(() => import("./SafetyBanner.js"), "SafetyBanner");
const ApprovalBanner = lazy(() => import("./ApprovalBanner.js"), "ApprovalBanner");
const RecoveryBanner = lazy(() => import("./RecoveryBanner.js"), "RecoveryBanner");
const McpWorkspaceBanner = lazy(() => import("./mcp/McpWorkspaceBanner.js"), "McpWorkspaceBanner");
const HooksBanner = lazy(() => import("./hooks/HooksBanner.js"), "HooksBanner");

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
      ${safetyNotices.value.length > 0 && html`<${SafetyBanner} />`}
      ${recoverable.value.length > 0 && html`<${RecoveryBanner} />`}
      ${[...waitingTasks.value.keys()].some((id) => id !== currentId.value) &&
        html`<${ApprovalBanner} />`}
      <${NotifyBanner} />
      ${workspaceOffer.value && html`<${McpWorkspaceBanner} />`}
      ${hookOffer.value && html`<${HooksBanner} />`}
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
