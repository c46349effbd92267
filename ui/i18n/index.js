/**
 * Translation lookup. `t()` reads the `lang` signal, so a component that calls it
 * re-renders when the language changes.
 *
 * @example
 * t("conn.reconnecting", { n: 3 }); // "Reconnecting… (attempt 3)"
 */
import { signal } from "@preact/signals";
import { lang } from "../state/prefs.js";
import baseEn from "./en-US.js";
import runEn from "./run.en-US.js";
import toolsEn from "./tools.en-US.js";
import interactEn from "./interact.en-US.js";
import projectsEn from "./projects.en-US.js";
import composerEn from "./composer.en-US.js";
import historyEn from "./history.en-US.js";
import searchEn from "./search.en-US.js";
import panelEn from "./panel.en-US.js";
import homeEn from "./home.en-US.js";
import safetyEn from "./safety.en-US.js";
import commandsEn from "./commands.en-US.js";
import subagentsEn from "./subagents.en-US.js";
import mcpEn from "./mcp.en-US.js";
import terminalEn from "./terminal.en-US.js";
import remoteEn from "./remote.en-US.js";
import gitEn from "./git.en-US.js";
import notifyEn from "./notify.en-US.js";
import skillsEn from "./skills.en-US.js";
import assistantsEn from "./assistants.en-US.js";
import memoryEn from "./memory.en-US.js";
import carryEn from "./carry.en-US.js";
import automationsEn from "./automations.en-US.js";
import usageEn from "./usage.en-US.js";
import paletteEn from "./palette.en-US.js";
import hooksEn from "./hooks.en-US.js";
import notesEn from "./notes.en-US.js";
import pluginsEn from "./plugins.en-US.js";
import netEn from "./net.en-US.js";
import updateEn from "./update.en-US.js";

const en = {
  ...baseEn,
  ...runEn,
  ...toolsEn,
  ...interactEn,
  ...projectsEn,
  ...composerEn,
  ...historyEn,
  ...searchEn,
  ...panelEn,
  ...homeEn,
  ...safetyEn,
  ...commandsEn,
  ...subagentsEn,
  ...mcpEn,
  ...terminalEn,
  ...remoteEn,
  ...gitEn,
  ...notifyEn,
  ...skillsEn,
  ...assistantsEn,
  ...memoryEn,
  ...carryEn,
  ...automationsEn,
  ...usageEn,
  ...hooksEn,
  ...notesEn,
  ...paletteEn,
  ...pluginsEn,
  ...netEn,
  ...updateEn,
};

/** @typedef {keyof typeof en} MsgKey a message key (every key has an English text) */

/**
 * The dictionaries by language. English is part of the first screen's code; Chinese is
 * a chunk of its own, loaded by {@link loadLang} (until then, English shows).
 * @type {Record<string, Record<string, string>>}
 */
export const DICTS = { "en-US": en, "zh-CN": {} };

/** Bumped when a dictionary arrives, so components that called t() render again. */
const loadedDicts = signal(0);

/** @type {Record<string, () => Promise<{default: Record<string, string>}>>} */
const LOADERS = { "zh-CN": () => import("./zh.js") };
/** @type {Map<string, Promise<void>>} */
const loading = new Map();

/**
 * Fetches the dictionary of `l` unless it is here already; resolves when it is (or
 * failed: then English stays, and the error is logged).
 * @param {string} l
 */
export function loadLang(l) {
  const load = LOADERS[l];
  if (!load) return Promise.resolve();
  let p = loading.get(l);
  if (!p) {
    p = load().then(
      (m) => {
        Object.assign(DICTS[l], m.default);
        loadedDicts.value++;
      },
      (e) => {
        loading.delete(l);
        console.error(`reinagent: could not load the ${l} strings`, e);
      },
    );
    loading.set(l, p);
  }
  return p;
}

/** The current language's dictionary, fetching it on first use. */
function langDict() {
  const l = lang.value;
  void loadedDicts.value; // read, so a caller renders again when a dictionary arrives
  if (l !== "en-US" && !loading.has(l)) loadLang(l);
  return DICTS[l] ?? en;
}

/**
 * Fills `{name}` placeholders from `params`; unknown placeholders stay as written.
 * @param {string} template
 * @param {Record<string, unknown>} [params]
 */
export function format(template, params) {
  if (!params) return template;
  return template.replace(
    /\{(\w+)\}/g,
    (m, k) => Object.hasOwn(params, k) ? String(params[k]) : m,
  );
}

/**
 * The string for `key` in the current language (English when missing there; the key
 * itself when missing everywhere, so a gap is visible instead of blank).
 * @param {MsgKey} key
 * @param {Record<string, unknown>} [params]
 */
export function t(key, params) {
  const dict = langDict();
  return format(dict[key] ?? en[key] ?? key, params);
}

/**
 * Like {@link t} with a count: uses `<key>.one` when `n` is 1 and the current language
 * has that form (languages without a singular form simply leave it out).
 * @param {MsgKey} key
 * @param {number} n
 * @param {Record<string, unknown>} [params] `n` is added
 */
export function tn(key, n, params) {
  const dict = langDict();
  const one = n === 1 && dict[`${key}.one`] !== undefined;
  return t(/** @type {any} */ (one ? `${key}.one` : key), { n, ...params });
}
