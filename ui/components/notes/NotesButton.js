/** The sidebar footer's Notes entry (opens Settings → Notes), lit while that page shows. */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { openSettingsTab, settingsOpen, settingsTab } from "../../state/settings.js";
import { IconNote } from "./NoteIcons.js";

export function NotesButton() {
  const on = settingsOpen.value && settingsTab.value === "notes";
  return html`
    <button type="button" class=${`icon-btn${on ? " on" : ""}`} data-testid="open-notes"
      aria-label=${t("notes.sidebar")} title=${t("notes.sidebar")}
      onClick=${() => openSettingsTab("notes")}>
      <${IconNote} />
    </button>
  `;
}
