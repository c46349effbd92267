/**
 * The left sidebar (an off-canvas drawer under 768 px): brand, New task and Search,
 * then two sections — Projects (each folder with its tasks nested) and Tasks (tasks
 * without a project, or whose project was removed) — each collapsible and
 * re-orderable by its drag handle (layout kept on the server), and a footer with
 * settings, theme, language and version.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { storeHealth } from "../state/connection.js";
import { currentId, sortedTasks, tasksLoaded } from "../state/tasks.js";
import { drawerOpen, setDrawer } from "../state/ui.js";
import { searchOpen } from "../state/overlays.js";
import {
  draftProject,
  isCollapsed,
  layout,
  looseTasks,
  newDraft,
  newTaskIn,
  projects,
  tasksByProject,
  toggleCollapsed,
} from "../state/projects.js";
import { IconClose, IconPlus } from "./Icons.js";
import { LangToggle, ThemeToggle } from "./Toggles.js";
import {
  closeSettings,
  openMcp,
  openSettings,
  openSettingsTab,
  openSkills,
  settingsOpen,
  settingsTab,
} from "../state/settings.js";
import { IconGear, IconPlug } from "./settings/controls.js";
import { mcpFailing } from "../state/mcp.js";
import { IconSkills } from "./skills/SkillIcons.js";
import { NotesButton } from "./notes/NotesButton.js";
import { AssistantsButton } from "./assistants/AssistantsButton.js";
import { IconClock } from "./automations/icons.js";
import { TaskRow } from "./TaskRow.js";
import { SectionHead } from "./sidebar/SectionHead.js";
import { ProjectGroup } from "./sidebar/ProjectGroup.js";
import { Portal } from "./sidebar/Portal.js";
import { reorderStatus } from "./sidebar/ReorderHandle.js";
import { IconChat, IconFolderPlus, IconSearch } from "./sidebar/icons.js";
import { PaletteButton } from "./palette/PaletteButton.js";
import { lazy } from "./lazy.js";

const FolderBrowser = lazy(() => import("./sidebar/FolderBrowser.js"), "FolderBrowser");

/** @param {{onAdd: () => void}} props */
function ProjectsSection({ onAdd }) {
  const collapsed = isCollapsed("projects");
  const list = projects.value;
  const byPath = tasksByProject.value;
  return html`
    <section
      class="sb-section"
      data-reorder-item
      data-section="projects"
      data-testid="section-projects"
      aria-label=${t("projects.section")}
    >
      <${SectionHead}
        id="projects"
        label=${t("projects.section")}
        collapsed=${collapsed}
        count=${list.length}
        onToggle=${() => toggleCollapsed("projects")}
      >
        <button
          type="button"
          class="icon-btn"
          data-testid="add-project"
          aria-label=${t("projects.add")}
          title=${t("projects.add")}
          onClick=${onAdd}
        >
          <${IconFolderPlus} size=${16} />
        </button>
      <//>
      ${!collapsed &&
        html`
          <div id="section-body-projects" class="sb-section-body">
            ${list.length === 0
              ? html`<p class="sidebar-note" data-testid="no-projects">${t("projects.empty")}</p>`
              : html`
                <ul class="project-list" role="list">
                  ${list.map((p, i) =>
                    html`
                      <${ProjectGroup}
                        key=${p.id}
                        project=${p}
                        index=${i}
                        tasks=${byPath.get(p.path) ?? []}
                      />
                    `
                  )}
                </ul>
              `}
          </div>
        `}
    </section>
  `;
}

function TasksSection() {
  const collapsed = isCollapsed("tasks");
  const list = looseTasks.value;
  const drafting = currentId.value === null && draftProject.value === null;
  return html`
    <section
      class=${`sb-section${tasksLoaded.value ? " task-section" : ""}`}
      data-reorder-item
      data-section="tasks"
      data-testid="section-tasks"
      aria-label=${t("projects.tasksSection")}
    >
      <${SectionHead}
        id="tasks"
        label=${t("projects.tasksSection")}
        collapsed=${collapsed}
        count=${list.length}
        onToggle=${() => toggleCollapsed("tasks")}
      >
        <button
          type="button"
          class=${`icon-btn${drafting && !settingsOpen.value ? " on" : ""}`}
          data-testid="tasks-new-task"
          aria-label=${t("projects.newTaskNoProject")}
          title=${t("projects.newTaskNoProject")}
          onClick=${() => {
            // Draft first: it replaces the settings URL, so no history move can undo it.
            newTaskIn(null);
            closeSettings();
          }}
        >
          <${IconChat} size=${16} />
        </button>
      <//>
      ${!collapsed &&
        html`
          <div id="section-body-tasks" class="sb-section-body">
            ${!tasksLoaded.value && list.length === 0
              ? html`<p class="sidebar-note">${t("sidebar.loading")}</p>`
              : list.length === 0
              ? html`<p class="sidebar-note" data-testid="no-tasks">
                ${
                storeHealth.value?.ok === false
                  ? t("sidebar.unavailable")
                  : sortedTasks.value.length > 0
                  ? t("projects.noLooseTasks")
                  : t("sidebar.empty")
              }
              </p>`
              : html`
                <ul class="task-list" role="list">
                  ${list.map((task) =>
                    html`<${TaskRow} key=${task.id} task=${task} active=${
                      task.id === currentId.value
                    } />`
                  )}
                </ul>
              `}
          </div>
        `}
    </section>
  `;
}

export function Sidebar() {
  const open = drawerOpen.value;
  const [browsing, setBrowsing] = useState(false);
  const newRef = useRef(/** @type {HTMLButtonElement|null} */ (null));
  useEffect(() => {
    // The drawer slides in: move keyboard focus into it.
    if (open) newRef.current?.focus({ preventScroll: true });
  }, [open]);
  const sections = {
    projects: html`<${ProjectsSection} key="projects" onAdd=${() => setBrowsing(true)} />`,
    tasks: html`<${TasksSection} key="tasks" />`,
  };
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
      <div class="sidebar-actions">
        <button
          type="button"
          ref=${newRef}
          class="new-task"
          data-testid="new-task"
          aria-current=${currentId.value === null && !settingsOpen.value ? "page" : undefined}
          onClick=${() => {
            // Draft first: it replaces the settings URL, so no history move can undo it.
            newDraft();
            closeSettings();
          }}
        >
          <${IconPlus} size=${16} />
          <span>${t("sidebar.newTask")}</span>
        </button>
        <button
          type="button"
          class="icon-btn sidebar-search"
          data-testid="open-search"
          aria-label=${t("projects.search")}
          title=${t("projects.searchHint")}
          onClick=${() => {
            setDrawer(false);
            searchOpen.value = true;
          }}
        >
          <${IconSearch} size=${18} />
        </button>
        <${PaletteButton} />
      </div>
      <nav
        class="sidebar-scroll"
        aria-label=${t("projects.nav")}
        onClick=${(/** @type {MouseEvent} */ e) =>
          /** @type {Element} */ (e.target).closest?.(".task-open") && closeSettings()}
      >
        ${layout.value.order.map((id) => sections[id])}
      </nav>
      <p class="sr-only" aria-live="polite" data-testid="reorder-status">${reorderStatus.value}</p>
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
        <button
          type="button"
          class=${`icon-btn${settingsOpen.value && settingsTab.value === "mcp" ? " on" : ""}`}
          data-testid="open-mcp"
          aria-label=${t("mcp.sidebar")}
          title=${t("mcp.sidebar")}
          onClick=${openMcp}
        >
          <${IconPlug} />${mcpFailing.value > 0 &&
            html`<span class="mcp-dot" data-testid="mcp-failing-dot" aria-hidden="true"></span>`}
        </button>
        <button
          type="button"
          class=${`icon-btn${settingsOpen.value && settingsTab.value === "skills" ? " on" : ""}`}
          data-testid="open-skills"
          aria-label=${t("skills.sidebar")}
          title=${t("skills.sidebar")}
          onClick=${openSkills}
        >
          <${IconSkills} />
        </button>
        <${AssistantsButton} />
        <${NotesButton} />
        <button
          type="button"
          class=${`icon-btn${
            settingsOpen.value && settingsTab.value === "automations" ? " on" : ""
          }`}
          data-testid="open-automations"
          aria-label=${t("automations.sidebar")}
          title=${t("automations.sidebar")}
          onClick=${() => openSettingsTab("automations")}
        >
          <${IconClock} />
        </button>
        <${ThemeToggle} />
        <${LangToggle} />
      </footer>
      ${browsing &&
        html`
          <${Portal}>
            <${FolderBrowser} onClose=${() => setBrowsing(false)} />
            <//>
        `}
    </aside>
  `;
}
