/**
 * The composer's "no sandbox" badge: shown while bubblewrap is unusable on the server's
 * machine and the shown task's level would use it, so every window sees that commands
 * would run as the user. The server probes
 * again after a failure and pushes the change; the badge goes when a probe succeeds.
 */
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { taskSandbox } from "../state/settings.js";
import { IconAlert } from "./RunIcons.js";

export function SandboxBadge() {
  if (taskSandbox.value !== "unavailable") return null;
  const why = t("sandbox.badge.title");
  return html`
    <span class="tool-btn tool-warn sandbox-badge" role="status" title=${why}
      data-testid="sandbox-badge">
      <${IconAlert} size=${15} />
      <span class="tool-label tl-long">${t("sandbox.badge")}</span>
      <span class="sr-only">${why}</span>
    </span>
  `;
}
