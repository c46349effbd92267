/**
 * The left sidebar (an off-canvas drawer under 768 px): brand, New task, the task
 * list (pinned first, then most recent) and a footer with theme, language, version.
 */
import { useEffect, useRef } from "preact/hooks";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { serverVersion, storeHealth } from "../state/connection.js";
import { currentId, newTask, sortedTasks, tasksLoaded } from "../state/tasks.js";
import { drawerOpen, setDrawer } from "../state/ui.js";
import { IconClose, IconPlus } from "./Icons.js";
import { LangToggle, ThemeToggle } from "./Toggles.js";
import { closeSettings, openSettings, settingsOpen } from "../state/settings.js";
import { IconGear } from "./settings/controls.js";
import { TaskRow } from "./TaskRow.js";

/**
 * @param {{label: string, tasks: import("../../server/protocol.ts").TaskSummary[]}} props
 */
function Section({ label, tasks }) {
  if (tasks.length === 0) return null;
  return html`
    <section class="task-section">
      <h2 class="task-section-label">${label}</h2>
      <ul class="task-list" role="list">
        ${tasks.map((task) =>
          html`<${TaskRow} key=${task.id} task=${task} active=${task.id === currentId.value} />`
        )}
      </ul>
    </section>
  `;
}

export function Sidebar() {
  const all = sortedTasks.value;
  const pinned = all.filter((x) => x.pinned);
  const recent = all.filter((x) => !x.pinned);
  const open = drawerOpen.value;
  const newRef = useRef(/** @type {HTMLButtonElement|null} */ (null));
  useEffect(() => {
    // The drawer slides in: move keyboard focus into it.
    if (open) newRef.current?.focus({ preventScroll: true });
  }, [open]);
  return html`
    <aside
      id="sidebar"
      class="sidebar"
      data-testid="sidebar"
      data-open=${open ? "true" : "false"}
      aria-label=${t("sidebar.label")}
    >
      <div class="sidebar-head">
        <div class="brand"><span class="brand-mark" aria-hidden="true">R</span>${t("brand")}</div>
        <button
          type="button"
          class="icon-btn drawer-close"
          data-testid="close-drawer"
          aria-label=${t("sidebar.close")}
          onClick=${() => setDrawer(false)}
        >
          <${IconClose} />
        </button>
      </div>
      <button
        type="button"
        ref=${newRef}
        class="new-task"
        data-testid="new-task"
        aria-current=${currentId.value === null && !settingsOpen.value ? "page" : undefined}
        onClick=${() => {
          newTask();
          closeSettings();
        }}
      >
        <${IconPlus} size=${16} />
        <span>${t("sidebar.newTask")}</span>
      </button>
      <nav
        class="sidebar-scroll"
        onClick=${(/** @type {MouseEvent} */ e) =>
          /** @type {Element} */ (e.target).closest?.(".task-open") && closeSettings()}
      >
        ${!tasksLoaded.value && all.length === 0
          ? html`<p class="sidebar-note">${t("sidebar.loading")}</p>`
          : all.length === 0
          ? html`<p class="sidebar-note" data-testid="no-tasks">
            ${storeHealth.value?.ok === false ? t("sidebar.unavailable") : t("sidebar.empty")}
          </p>`
          : html`
            <${Section} label=${t("sidebar.pinned")} tasks=${pinned} />
            <${Section} label=${t("sidebar.recent")} tasks=${recent} />
          `}
      </nav>
      <footer class="sidebar-foot">
        <button
          type="button"
          class=${`icon-btn${settingsOpen.value ? " on" : ""}`}
          data-testid="open-settings"
          aria-label=${t("sidebar.settings")}
          aria-pressed=${settingsOpen.value ? "true" : "false"}
          title=${t("sidebar.settings")}
          onClick=${openSettings}
        >
          <${IconGear} />
        </button>
        <${ThemeToggle} />
        <${LangToggle} />
        ${serverVersion.value &&
          html`<span class="version" title=${t("footer.version", { version: serverVersion.value })}>
            v${serverVersion.value}
          </span>`}
      </footer>
    </aside>
  `;
}
