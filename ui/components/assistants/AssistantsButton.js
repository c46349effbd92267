/** The sidebar footer's entry to Settings → Assistants. */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { openSettings, settingsOpen, settingsTab } from "../../state/settings.js";
import { IconAssistant } from "./AssistantIcon.js";

export function AssistantsButton() {
  const on = settingsOpen.value && settingsTab.value === "assistants";
  return html`
    <button
      type="button"
      class=${`icon-btn${on ? " on" : ""}`}
      data-testid="open-assistants"
      aria-label=${t("assistants.sidebar")}
      title=${t("assistants.sidebar")}
      onClick=${() => {
        settingsTab.value = "assistants";
        openSettings();
      }}
    >
      <${IconAssistant} />
    </button>
  `;
}
