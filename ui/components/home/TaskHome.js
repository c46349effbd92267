/**
 * The phone task home : the start
 * view under 768 px. A bar (drawer, title, search), notices, a summary of what needs
 * attention, then the tasks — pinned first, then one group per workspace (each
 * project, then "Tasks"), each split into Today / Yesterday / Earlier this week /
 * Older. A tap opens a task (Back returns here); "New task" at the bottom — or the +
 * of a workspace — opens the draft with the composer.
 *
 * @typedef {import("../../../protocol/index.ts").TaskSummary} TaskSummary
 * @typedef {import("../../state/home_model.js").WorkspaceGroup} WorkspaceGroup
 */
import { DrawerButton } from "../Header.js";
import { TerminalButton } from "../terminal/TerminalButton.js";
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { approvalTaskIds } from "../../state/approvals.js";
import { buildHome, displayStatus, statusCounts, workspaceName } from "../../state/home_model.js";
import { searchOpen } from "../../state/overlays.js";
import { lang } from "../../state/prefs.js";
import { layout, newDraft, newTaskIn, projects } from "../../state/projects.js";
import { sortedTasks, tasksLoaded } from "../../state/tasks.js";
import { Banners } from "../Banners.js";
import { IconPin, IconPlus } from "../Icons.js";
import { IconChat, IconFolder, IconSearch } from "../sidebar/icons.js";
import { useNow } from "../useNow.js";
import { HomeRow } from "./HomeRow.js";

/**
 * Opens the draft (in a project, or none); phone.js gives it a history entry.
 * @param {string|null} path
 */
function startDraft(path) {
  newTaskIn(path);
}

function HomeHeader() {
  return html`
    <header class="header home-header">
      <${DrawerButton} className="icon-btn" />
      <h1 class="header-title" data-testid="header-title">${t("home.title")}</h1>
      <button
        type="button"
        class="icon-btn"
        data-testid="home-search"
        aria-label=${t("home.search")}
        title=${t("home.search")}
        onClick=${() => searchOpen.value = true}
      >
        <${IconSearch} />
      </button>
      <${TerminalButton} />
    </header>
  `;
}

/** @param {{tasks: TaskSummary[]}} props */
function Summary({ tasks }) {
  const c = statusCounts(tasks, approvalTaskIds.value);
  const parts = [
    c.waiting && { k: "waiting", text: tn("home.sum.waiting", c.waiting) },
    c.queued && { k: "queued", text: tn("home.sum.queued", c.queued) },
    c.running && { k: "running", text: tn("home.sum.running", c.running) },
    c.failed && { k: "failed", text: tn("home.sum.failed", c.failed) },
    c.unread && { k: "unread", text: tn("home.sum.unread", c.unread) },
  ].filter((x) => !!x);
  if (parts.length === 0) return null;
  return html`
    <p class="home-summary" data-testid="home-summary">
      ${parts.map((p) =>
        p && html`<span class=${`home-sum home-sum-${p.k}`} data-kind=${p.k}>${p.text}</span>`
      )}
    </p>
  `;
}

/** @param {{task: TaskSummary, now: number, workspace?: string}} props */
function Row({ task, now, workspace }) {
  const status = displayStatus(task, approvalTaskIds.value.has(task.id));
  return html`<${HomeRow} task=${task} status=${status} now=${now} workspace=${workspace} />`;
}

/** @param {{group: WorkspaceGroup, now: number}} props */
function Group({ group, now }) {
  const name = group.name ?? t("home.looseGroup");
  const newLabel = group.projectPath ? t("home.newTaskIn", { name }) : t("home.newTaskLoose");
  return html`
    <section
      class="home-group"
      data-testid="home-group"
      data-group=${group.key}
      data-path=${group.projectPath ?? ""}
      aria-label=${name}
    >
      <div class="home-group-head">
        <span class="home-group-icon">
          ${group.projectPath
            ? html`<${IconFolder} size=${16} />`
            : html`<${IconChat} size=${16} />`}
        </span>
        <h2 class="home-group-name" data-testid="home-group-name" title=${group.projectPath ?? ""}>
          ${name}
        </h2>
        <span class="home-group-count">${tn("home.count", group.count)}</span>
        <button
          type="button"
          class="icon-btn home-group-new"
          data-testid="home-group-new"
          aria-label=${newLabel}
          title=${newLabel}
          onClick=${() => startDraft(group.projectPath)}
        >
          <${IconPlus} size=${18} />
        </button>
      </div>
      ${group.sections.map((s) =>
        html`
          <div class="home-time" data-testid="home-time" data-time=${s.key}>
            <h3 class="home-time-label">${t(/** @type {const} */ (`home.time.${s.key}`))}</h3>
            <ul class="home-list" role="list">
              ${s.tasks.map((task) => html`<${Row} key=${task.id} task=${task} now=${now} />`)}
            </ul>
          </div>
        `
      )}
    </section>
  `;
}

export function TaskHome() {
  const now = useNow(60_000, true);
  const tasks = sortedTasks.value;
  const list = projects.value;
  const order = layout.value.order;
  const home = buildHome(tasks, list, {
    now,
    weekStart: lang.value === "en-US" ? 0 : 1,
    looseFirst: order.indexOf("tasks") < order.indexOf("projects"),
  });
  return html`
    <div class="home" data-testid="task-home" aria-label=${t("home.label")}>
      <${HomeHeader} />
      <${Banners} />
      <div class="home-scroll">
        <div class="home-inner">
          ${!tasksLoaded.value && tasks.length === 0
            ? html`<p class="home-note" data-testid="home-loading">${t("home.loading")}</p>`
            : html`
              <${Summary} tasks=${tasks} />
              ${home.pinned.length > 0 &&
                html`
                  <section class="home-group home-pinned" data-testid="home-pinned" aria-label=${t(
                    "home.pinned",
                  )}>
                    <div class="home-group-head">
                      <span class="home-group-icon"><${IconPin} size=${16} /></span>
                      <h2 class="home-group-name">${t("home.pinned")}</h2>
                    </div>
                    <ul class="home-list" role="list">
                      ${home.pinned.map((task) =>
                        html`
                          <${Row}
                            key=${task.id}
                            task=${task}
                            now=${now}
                            workspace=${workspaceName(task, list) ?? t("home.looseGroup")}
                          />
                        `
                      )}
                    </ul>
                  </section>
                `}
              ${home.groups.map((g) => html`<${Group} key=${g.key} group=${g} now=${now} />`)}
            `}
        </div>
      </div>
      <div class="home-foot">
        <button
          type="button"
          class="home-new"
          data-testid="home-new-task"
          onClick=${() => newDraft()}
        >
          <${IconPlus} size=${18} />
          <span>${t("home.newTask")}</span>
        </button>
      </div>
    </div>
  `;
}
