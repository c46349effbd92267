/**
 * The whole workbench: sidebar (drawer on phones), header, notices, conversation,
 * composer. On phones the start view is the task home (home/TaskHome.js).
 */
import { useEffect } from "preact/hooks";
import { html } from "../html.js";
import { currentId } from "../state/tasks.js";
import { drawerOpen, setDrawer } from "../state/ui.js";
import { settingsOpen } from "../state/settings.js";
import { Banners } from "./Banners.js";
import { Composer } from "./Composer.js";
import { EmptyState } from "./EmptyState.js";
import { homeActive } from "./home/phone.js";
import { TaskHome } from "./home/TaskHome.js";
import { Header } from "./Header.js";
import { rewindState } from "../state/rewind.js";
import { rightPanel } from "../state/overlays.js";
import { Sidebar } from "./Sidebar.js";
import { SearchLayer } from "./search/SearchLayer.js";
import { PaletteLayer } from "./palette/PaletteLayer.js";
import { StatsLine } from "./search/StatsLine.js";
import { termDockOpen } from "../state/terminal.js";
import { accessRevoked } from "../state/connection.js";
import { RemoteAccessRevoked } from "./settings/RemoteAccessRevoked.js";
import { lazy } from "./lazy.js";
import { mcpQuestions } from "../state/mcp.js";

const SettingsView = lazy(() => import("./settings/SettingsView.js"), "SettingsView");
const Timeline = lazy(() => import("./Timeline.js"), "Timeline");
const RewindDialog = lazy(() => import("./interact/RewindDialog.js"), "RewindDialog");
const RightPanel = lazy(() => import("./panel/RightPanel.js"), "RightPanel");
const TerminalDock = lazy(() => import("./terminal/TerminalDock.js"), "TerminalDock");
const McpQuestionLayer = lazy(() => import("./mcp/McpQuestionDialog.js"), "McpQuestionLayer");

export function App() {
  const open = drawerOpen.value;
  useEffect(() => {
    if (!open) return;
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      if (e.key === "Escape") setDrawer(false);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  if (accessRevoked.value) return html`<${RemoteAccessRevoked} />`;
  return html`
    <div class="app" data-drawer=${open ? "open" : "closed"}>
      <${Sidebar} />
      <div
        class="backdrop"
        data-testid="drawer-backdrop"
        aria-hidden="true"
        onClick=${() => setDrawer(false)}
      ></div>
      <main class="main">
        ${settingsOpen.value
          ? html`<${SettingsView} />`
          : homeActive.value
          ? html`<${TaskHome} />`
          : html`
            <${Header} />
            <${Banners} />
            ${currentId.value === null ? html`<${EmptyState} />` : html`<${Timeline} />`}
            <${StatsLine} />
            <${Composer} />
            ${rewindState.value && html`<${RewindDialog} />`}
          `}
        ${!settingsOpen.value && termDockOpen.value && html`<${TerminalDock} />`}
      </main>
      ${!settingsOpen.value && rightPanel.value && html`<${RightPanel} />`}
      <${SearchLayer} />
      <${PaletteLayer} />
      ${mcpQuestions.value.length > 0 && html`<${McpQuestionLayer} />`}
    </div>
  `;
}
