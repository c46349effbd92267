/**
 * Banners for tasks that finished or failed while you were elsewhere (another task, the
 * list, another window): "“Title” finished — Open ×". Waiting tasks have the approval
 * banner; seeing the task clears its banner.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { dismissBanner, notifyBanners, openFromBanner } from "../../state/notify.js";
import { tasksById } from "../../state/tasks.js";
import { IconClose } from "../Icons.js";

export function NotifyBanner() {
  const list = notifyBanners.value;
  if (list.length === 0) return null;
  return html`
    ${list.map((e) => {
      const title = tasksById.value.get(e.taskId)?.title || e.taskTitle || t("task.untitled");
      return html`
        <div
          key=${e.id}
          class=${`banner notify-banner notify-${e.kind}`}
          role="status"
          data-testid="notify-banner"
          data-kind=${e.kind}
        >
          <span class="notify-dot" aria-hidden="true"></span>
          <p>${t(e.kind === "failed" ? "notify.banner.failed" : "notify.banner.finished", {
            title,
          })}</p>
          <button
            type="button"
            class="ap-btn"
            data-testid="notify-banner-open"
            onClick=${() => openFromBanner(e)}
          >
            ${t("notify.open")}
          </button>
          <button
            type="button"
            class="icon-btn"
            data-testid="notify-banner-dismiss"
            aria-label=${t("notify.dismiss")}
            title=${t("notify.dismiss")}
            onClick=${() => dismissBanner(e.id)}
          >
            <${IconClose} size=${16} />
          </button>
        </div>
      `;
    })}
  `;
}
