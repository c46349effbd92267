/** Opens the sidebar drawer (phones). @param {{className: string}} props */
export function DrawerButton({ className }) {
  return html`
    <button
      type="button"
      class=${className}
      data-testid="open-drawer"
      aria-label=${t("header.openDrawer")}
      aria-controls="sidebar"
      aria-expanded=${drawerOpen.value ? "true" : "false"}
      onClick=${() => setDrawer(true)}
    >
      <${IconMenu} />
    </button>
  `;
}

/**
 * The bar above the conversation: drawer button (phone), task title, the Demo badge
 * while the Demo model is in use, find, the Git / Files panel buttons, the task menu
 * (export), new task (phone).
 */
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { currentId, currentTask } from "../state/tasks.js";
import { newDraft } from "../state/projects.js";
import { sysDefaults } from "../state/models.js";
import { activeOptions } from "../state/run_actions.js";
import { drawerOpen, setDrawer } from "../state/ui.js";
import { DemoBadge } from "./DemoBadge.js";
import { ProjectChip } from "./sidebar/ProjectChip.js";
import { AssistantChip } from "./assistants/AssistantChip.js";
import { IconMenu, IconPlus } from "./Icons.js";
import { FindButton } from "./search/FindBar.js";
import { TerminalButton } from "./terminal/TerminalButton.js";
import { PanelButtons } from "./panel/PanelTabs.js";
import { TaskMenu } from "./carry/TaskMenu.js";

export function Header() {
  const task = currentTask.value;
  const title = currentId.value === null
    ? t("header.draft")
    : task
    ? task.title || t("task.untitled")
    : "";
  return html`
    <header class="header">
      <${DrawerButton} className="icon-btn phone-only" />
      <h1 class="header-title" data-testid="header-title">${title}</h1>
      <${ProjectChip} />
      <${AssistantChip} place="header" />
      ${activeOptions.value.isDemo &&
        (sysDefaults.value !== null || !activeOptions.value.inherited.model) &&
        html`<${DemoBadge} />`}
      <${FindButton} />
      <${TerminalButton} desktopOnly=${currentId.value !== null} />
      <${PanelButtons} />
      <${TaskMenu} />
      <button
        type="button"
        class="icon-btn phone-only"
        data-testid="header-new-task"
        aria-label=${t("sidebar.newTask")}
        onClick=${() => newDraft({ keep: true })}
      >
        <${IconPlus} />
      </button>
    </header>
  `;
}
