/**
 * The right panel's tabs: Preview, Diff, Git, Files, Sub-agents. Preview
 * and Diff return to the last file and diff shown for the task (disabled until there is
 * one); the others always open. Also the header's buttons that open the panel on a tab.
 *
 * @typedef {import("../../state/overlays.js").PanelView} PanelView
 * @typedef {import("../../state/panel.js").PanelTab} PanelTab
 */
import { IconBranch } from "../sidebar/icons.js";
import { IconTerminal } from "../terminal/TerminalButton.js";
import { openTerminalDock } from "../../state/terminal.js";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { rightPanel } from "../../state/overlays.js";
import { closePanel, openTab, PANEL_TABS, tabOf, viewOfTab } from "../../state/panel.js";
import { currentId } from "../../state/tasks.js";
import { Menu } from "../Menu.js";
import { MenuItem } from "../MenuItem.js";
import { exportItems } from "../carry/TaskMenu.js";
import { organiseItem } from "../notes/OrganiseItem.js";
import { paletteMenuItems } from "../palette/menuItems.js";

/** i18n key of each tab's name (also its accessible name). */
export const TAB_LABEL = /** @type {const} */ ({
  preview: "panel.tab.preview",
  diff: "panel.tab.diff",
  git: "panel.tab.git",
  files: "panel.tab.files",
  subagents: "panel.tab.subagents",
});

/** @param {{view: PanelView}} props */
export function PanelTabs({ view }) {
  const active = tabOf(view);
  return html`
    <nav class="rpanel-tabs" aria-label=${t("panel.tabs")} data-testid="panel-tabs">
      ${PANEL_TABS.map((tab) => {
        const can = viewOfTab(tab, view.taskId) !== null;
        return html`
          <button
            type="button"
            class="rpanel-tab"
            data-testid=${`panel-tab-${tab}`}
            aria-current=${tab === active ? "page" : "false"}
            disabled=${!can}
            title=${can ? t(TAB_LABEL[tab]) : t("panel.tabEmpty")}
            onClick=${() => openTab(tab, view.taskId)}
          >${t(TAB_LABEL[tab])}</button>
        `;
      })}
    </nav>
  `;
}

const IconFolder = () =>
  html`
    <svg class="icon" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor"
      stroke-width="1.8" stroke-linejoin="round" aria-hidden="true">
      <path
        d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
    </svg>
  `;

/**
 * Header buttons that open (or close) the panel on Git / Files for the shown task.
 * Their accessible names say what they open. A phone's header has no room for them:
 * there one "Workbench" menu holds the same entries and the terminal (a bottom sheet).
 */
export function PanelButtons() {
  const id = currentId.value;
  if (!id) return null;
  const v = rightPanel.value;
  const shown = v && v.taskId === id ? tabOf(v) : null;
  /** @param {"git"|"files"} tab @param {unknown} icon */
  const button = (tab, icon) =>
    html`
      <button
        type="button"
        class="icon-btn desktop-only"
        data-testid=${`open-${tab}`}
        aria-label=${t(TAB_LABEL[tab])}
        title=${t(TAB_LABEL[tab])}
        aria-pressed=${shown === tab ? "true" : "false"}
        onClick=${() => (shown === tab ? closePanel() : openTab(tab, id))}
      >${icon}</button>
    `;
  return html`
    ${button("git", html`<${IconBranch} />`)}${button("files", html`<${IconFolder} />`)}
    <${Menu}
      testid="open-workbench"
      title=${t("panel.workbench")}
      value=""
      wrapClass="phone-only workbench-menu"
      button=${html`<${IconFolder} />`}
    >
      ${(/** @type {() => void} */ close) =>
        (/** @type {const} */ (["git", "files", "subagents"])).map((tab) =>
          html`
            <${MenuItem}
              role="menuitem"
              checked=${false}
              testid=${`workbench-${tab}`}
              title=${t(TAB_LABEL[tab])}
              icon=${tab === "git"
                ? html`<${IconBranch} />`
                : tab === "files"
                ? html`<${IconFolder} />`
                : null}
              onSelect=${() => {
                close();
                openTab(tab, id);
              }}
            />
          `
        ).concat(html`
          <${MenuItem}
            role="menuitem"
            checked=${false}
            testid="workbench-terminal"
            title=${t("terminal.open")}
            icon=${html`<${IconTerminal} />`}
            onSelect=${() => {
              close();
              openTerminalDock();
            }}
          />
        `).concat(exportItems(id, close), organiseItem(id, close), paletteMenuItems(close))}
    <//>
  `;
}
