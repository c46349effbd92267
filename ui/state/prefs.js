/**
 * Per-device display preferences (theme, language, font scale), kept in localStorage
 * and applied to `<html>` as `data-theme`, `lang` and the `--font-scale` variable.
 */
import { computed, effect, signal } from "@preact/signals";

/** @typedef {"system"|"light"|"dark"} ThemePref */
/** @typedef {"en-US"|"zh-CN"} Lang */

export const LANGS = /** @type {const} */ (["en-US", "zh-CN"]);
export const THEMES = /** @type {const} */ (["system", "light", "dark"]);
export const FONT_SCALES = [0.9, 1, 1.1, 1.2];

const KEY = { theme: "reinagent.theme", lang: "reinagent.lang", font: "reinagent.fontScale" };

/** @param {string} key */
function load(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage disabled (private mode, sandboxed webview)
  }
}

/**
 * @param {string} key
 * @param {string} value
 */
function save(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // storage disabled: the preference lasts for this page only
  }
}

/**
 * Picks the UI language from the browser's preferences.
 * @param {readonly string[]} languages e.g. navigator.languages
 * @returns {Lang}
 */
export function detectLang(languages) {
  for (const l of languages) {
    const low = l.toLowerCase();
    if (low.startsWith("zh")) return "zh-CN";
    if (low.startsWith("en")) return "en-US";
  }
  return "en-US";
}

const storedTheme = load(KEY.theme);
const storedLang = load(KEY.lang);
const storedFont = Number(load(KEY.font));

/** The chosen theme; "system" follows the OS. */
export const themePref = signal(
  /** @type {ThemePref} */ (THEMES.includes(/** @type {any} */ (storedTheme))
    ? storedTheme
    : "system"),
);
export const lang = signal(
  /** @type {Lang} */ (LANGS.includes(/** @type {any} */ (storedLang))
    ? storedLang
    : detectLang(navigator.languages?.length ? navigator.languages : [navigator.language ?? ""])),
);
export const fontScale = signal(FONT_SCALES.includes(storedFont) ? storedFont : 1);

const media = typeof matchMedia === "function" ? matchMedia("(prefers-color-scheme: dark)") : null;
const systemDark = signal(media?.matches ?? false);
media?.addEventListener("change", (e) => systemDark.value = e.matches);

/** The theme actually shown. */
export const theme = computed(() =>
  themePref.value === "system" ? (systemDark.value ? "dark" : "light") : themePref.value
);

/** Cycles system → light → dark → system. */
export function cycleTheme() {
  const i = THEMES.indexOf(themePref.value);
  themePref.value = THEMES[(i + 1) % THEMES.length];
  save(KEY.theme, themePref.value);
}

/** Switches between the UI languages. */
export function toggleLang() {
  lang.value = lang.value === "en-US" ? "zh-CN" : "en-US";
  save(KEY.lang, lang.value);
}

/** @param {number} scale one of {@link FONT_SCALES} */
export function setFontScale(scale) {
  if (!FONT_SCALES.includes(scale)) return;
  fontScale.value = scale;
  save(KEY.font, String(scale));
}

/** Mirrors the preferences onto `<html>`; call once at start-up. */
export function applyPrefs() {
  const root = document.documentElement;
  effect(() => {
    root.dataset.theme = theme.value;
    root.dataset.themePref = themePref.value;
  });
  effect(() => {
    root.lang = lang.value;
  });
  effect(() => {
    root.style.setProperty("--font-scale", String(fontScale.value));
  });
}
