/** Theme (system → light → dark) and language toggles. */
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { cycleTheme, themePref, toggleLang } from "../state/prefs.js";
import { IconGlobe, IconMonitor, IconMoon, IconSun } from "./Icons.js";

const THEME_ICON = { system: IconMonitor, light: IconSun, dark: IconMoon };

export function ThemeToggle() {
  const pref = themePref.value;
  const label = t(/** @type {const} */ (`theme.${pref}`));
  const Icon = THEME_ICON[pref];
  return html`
    <button
      type="button"
      class="icon-btn"
      data-testid="theme-toggle"
      data-theme-pref=${pref}
      aria-label=${label}
      title=${label}
      onClick=${cycleTheme}
    >
      <${Icon} />
    </button>
  `;
}

export function LangToggle() {
  return html`
    <button
      type="button"
      class="icon-btn lang-btn"
      data-testid="lang-toggle"
      aria-label=${t("lang.toggle")}
      title=${t("lang.toggle")}
      onClick=${toggleLang}
    >
      <${IconGlobe} />
      <span class="lang-short">${t("lang.short")}</span>
    </button>
  `;
}
