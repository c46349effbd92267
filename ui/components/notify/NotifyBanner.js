/**
 * The banner for tasks that finished or failed while you were elsewhere (another task,
 * the list, another window): "“Title” finished · 2 more — Open ×", one line whatever the
 * count. Waiting tasks have the approval banner; seeing the task clears its banner, and
 * it goes by itself after a few seconds (state/notify.js BANNER_MS).
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import {
  dismissAllBanners,
  dismissBanner,
  notifyBanners,
  openFromBanner,
} from "../../state/notify.js";
import { tasksById } from "../../state/tasks.js";
import { IconClose } from "../Icons.js";

export function NotifyBanner() {
  const list = notifyBanners.value;
  if (list.length === 0) return null;
  // One banner however many tasks ended: the newest, with how many more are behind it.
  const e = list[0];
  const more = list.length - 1;
  const title = tasksById.value.get(e.taskId)?.title || e.taskTitle || t("task.untitled");
  return html`
    <div
      key=${e.id}
      class=${`banner notify-banner notify-${e.kind}`}
      role="status"
      data-testid="notify-banner"
      data-kind=${e.kind}
      data-more=${more}
    >
      <span class="notify-dot" aria-hidden="true"></span>
      <p>
        <span class="notify-text">${t(
          e.kind === "failed"
            ? "notify.banner.failed"
            : e.kind === "branch"
            ? `notify.banner.branch.${e.branch?.action ?? "kept"}`
            : "notify.banner.finished",
          { title, branch: e.branch?.name ?? "" },
        )}</span>
        ${more > 0 && html`
          <span class="notify-more" data-testid="notify-banner-more">${t("notify.banner.more", {
            n: more,
          })}</span>
        `}
      </p>
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
        aria-label=${more > 0 ? t("notify.dismissAll") : t("notify.dismiss")}
        title=${more > 0 ? t("notify.dismissAll") : t("notify.dismiss")}
        onClick=${more > 0 ? dismissAllBanners : () => dismissBanner(e.id)}
      >
        <${IconClose} size=${16} />
      </button>
    </div>
  `;
}
