/**
 * One task on the phone home: a single large tap target that opens the task with a
 * history entry of its own (so the browser's Back returns to the home). It shows the
 * unread dot, the title, the relative time, the task's state badge (the same as the
 * sidebar's: StatusBadge.js) and, in the pinned section, the task's workspace.
 *
 * @typedef {import("../../../protocol/index.ts").TaskSummary} TaskSummary
 * @typedef {import("../../state/home_model.js").DisplayStatus} DisplayStatus
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { lang } from "../../state/prefs.js";
import { relativeTime } from "../../state/home_model.js";
import { openTask } from "../../state/tasks.js";
import { IconPin } from "../Icons.js";
import { StatusBadge } from "../StatusBadge.js";

/**
 * The row's time: "now", "5m", "3h", "2d", else a short date ("Mar 4", with the year
 * when it is not this year).
 * @param {number} ts
 * @param {number} now
 */
export function fmtRelative(ts, now) {
  const r = relativeTime(ts, now);
  if (r.unit === "now") return t("home.rel.now");
  if (r.unit === "min") return t("home.rel.min", { n: r.n });
  if (r.unit === "hour") return t("home.rel.hour", { n: r.n });
  if (r.unit === "day") return t("home.rel.day", { n: r.n });
  return new Intl.DateTimeFormat(lang.value, {
    month: "short",
    day: "numeric",
    ...(r.sameYear ? {} : { year: "numeric" }),
  }).format(ts);
}

/**
 * @param {{task: TaskSummary, status: DisplayStatus, now: number, workspace?: string}} props
 */
export function HomeRow({ task, status, now, workspace }) {
  const title = task.title || t("task.untitled");
  const when = fmtRelative(task.updatedAt, now);
  return html`
    <li
      class="home-row"
      data-testid="home-row"
      data-task-id=${task.id}
      data-status=${status}
      data-unread=${task.unread ? "true" : "false"}
    >
      <button type="button" class="home-open" onClick=${() => openTask(task.id, true)}>
        <span class="home-unread-slot">
          ${task.unread &&
            html`<span class="dot dot-accent" data-testid="home-unread" role="img" aria-label=${
              t(
                "home.unread",
              )
            }></span>`}
        </span>
        <span class="home-row-main">
          <span class="home-row-line">
            <span class="home-row-title" data-testid="home-row-title">${title}</span>
            <time
              class="home-row-time"
              datetime=${new Date(task.updatedAt).toISOString()}
              data-testid="home-row-time"
            >${when}</time>
          </span>
          ${(status !== "new" || workspace || task.pinned) &&
            html`
              <span class="home-row-line home-row-meta">
                <${StatusBadge} state=${status} testid="home-badge" />
                ${task.pinned &&
                  html`<span class="home-pin" role="img" aria-label=${t("home.pinned")}><${IconPin}
                    size=${13}
                  /></span>`}
                ${workspace && html`<span class="home-row-ws">${workspace}</span>`}
              </span>
            `}
        </span>
      </button>
    </li>
  `;
}
