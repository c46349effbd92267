/**
 * The Settings view: a header with Back, tabs (Providers, MCP, Assistants, Skills, Memory, Notes, Hooks,
 * Plugins, Automations, Usage, Remote access, General, Import & backup, About) and the tab's
 * content. It replaces the conversation in the main column on desktop and phone.
 */
import { useEffect } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { closeSettings, settingsLoaded, settingsTab } from "../../state/settings.js";
import { Banners } from "../Banners.js";
import { IconBack } from "./controls.js";
import { GeneralSettings } from "./GeneralSettings.js";
import { AboutSettings } from "./AboutSettings.js";
import { ProvidersPane } from "./ProvidersPane.js";
import { McpPane } from "../mcp/McpPane.js";
import { SkillsPane } from "../skills/SkillsPane.js";
import { RemoteAccess } from "./RemoteAccess.js";
import { AssistantsPane } from "../assistants/AssistantsPane.js";
import { MemoryPane } from "../memory/MemoryPane.js";
import { NotesPane } from "../notes/NotesPane.js";
import { CarrySettings } from "../carry/CarrySettings.js";
import { AutomationsPane } from "../automations/AutomationsPane.js";
import { UsagePane } from "../usage/UsagePane.js";
import { HooksSettings } from "../hooks/HooksSettings.js";
import { PluginsPane } from "../plugins/PluginsPane.js";

const TABS = /** @type {const} */ ([
  "providers",
  "mcp",
  "assistants",
  "skills",
  "memory",
  "notes",
  "hooks",
  "plugins",
  "automations",
  "usage",
  "remote",
  "general",
  "data",
  "about",
]);

export function SettingsView() {
  const tab = settingsTab.value;
  useEffect(() => {
    const before = document.title;
    document.title = `${t("settings.title")} · ${t("brand")}`;
    return () => void (document.title = before);
  }, []);
  return html`
    <section class="settings" data-testid="settings-view" aria-labelledby="settings-title">
      <header class="header settings-header">
        <button
          type="button"
          class="icon-btn"
          data-testid="close-settings"
          aria-label=${t("settings.back")}
          title=${t("settings.back")}
          onClick=${closeSettings}
        >
          <${IconBack} />
        </button>
        <h1 class="header-title" id="settings-title">${t("settings.title")}</h1>
        <span class="settings-header-end" aria-hidden="true"></span>
      </header>
      <${Banners} />
      <div class="settings-scroll">
        <div class="settings-inner">
          <div class="seg settings-tabs" role="tablist" aria-label=${t("settings.title")}>
            ${TABS.map((id) =>
              html`
                <button
                  type="button"
                  role="tab"
                  class="seg-btn"
                  data-testid=${`settings-tab-${id}`}
                  aria-selected=${tab === id ? "true" : "false"}
                  onClick=${() => settingsTab.value = id}
                >
                  ${t(/** @type {const} */ (`settings.tab.${id}`))}
                </button>
              `
            )}
          </div>
          ${!settingsLoaded.value
            ? html`<p class="settings-note">${t("settings.loading")}</p>`
            : tab === "providers"
            ? html`<${ProvidersPane} />`
            : tab === "mcp"
            ? html`<${McpPane} />`
            : tab === "skills"
            ? html`<${SkillsPane} />`
            : tab === "memory"
            ? html`<${MemoryPane} />`
            : tab === "notes"
            ? html`<${NotesPane} />`
            : tab === "automations"
            ? html`<${AutomationsPane} />`
            : tab === "usage"
            ? html`<${UsagePane} />`
            : tab === "hooks"
            ? html`<${HooksSettings} />`
            : tab === "plugins"
            ? html`<${PluginsPane} />`
            : tab === "remote"
            ? html`<${RemoteAccess} />`
            : tab === "assistants"
            ? html`<${AssistantsPane} />`
            : tab === "data"
            ? html`<${CarrySettings} />`
            : tab === "about"
            ? html`<${AboutSettings} />`
            : html`<${GeneralSettings} />`}
        </div>
      </div>
    </section>
  `;
}
