/**
 * Per-device display preferences (theme, language, font scale, message theme), kept in
 * localStorage and applied to `<html>` as `data-theme`, `lang`, the `--font-scale`
 * variable and `data-message-theme`.
 */
import { computed, effect, signal } from "@preact/signals";

/** @typedef {"system"|"light"|"dark"} ThemePref */
/** @typedef {"en-US"|"zh-CN"} Lang */

export const LANGS = /** @type {const} */ (["en-US", "zh-CN"]);
export const THEMES = /** @type {const} */ (["system", "light", "dark"]);
export const FONT_SCALES = [0.9, 1, 1.1, 1.2];
/** Looks of the conversation (seed: the default and an OpenCode-like palette). */
export const MESSAGE_THEMES = /** @type {const} */ (["default", "opencode"]);
/** @typedef {typeof MESSAGE_THEMES[number]} MessageTheme */

const KEY = {
  theme: "reinagent.theme",
  lang: "reinagent.lang",
  font: "reinagent.fontScale",
  messageTheme: "reinagent.messageTheme",
};

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
const storedMessageTheme = load(KEY.messageTheme);
export const messageTheme = signal(
  /** @type {MessageTheme} */ (MESSAGE_THEMES.includes(/** @type {any} */ (storedMessageTheme))
    ? storedMessageTheme
    : "default"),
);

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

/** @param {ThemePref} pref */
export function setThemePref(pref) {
  if (!THEMES.includes(pref)) return;
  themePref.value = pref;
  save(KEY.theme, pref);
}

/** @param {Lang} l */
export function setLang(l) {
  if (!LANGS.includes(l)) return;
  lang.value = l;
  save(KEY.lang, l);
}

/** @param {MessageTheme} m */
export function setMessageTheme(m) {
  if (!MESSAGE_THEMES.includes(m)) return;
  messageTheme.value = m;
  save(KEY.messageTheme, m);
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
  effect(() => {
    root.dataset.messageTheme = messageTheme.value;
  });
}
