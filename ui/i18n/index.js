/**
 * Translation lookup. `t()` reads the `lang` signal, so a component that calls it
 * re-renders when the language changes.
 *
 * @example
 * t("conn.reconnecting", { n: 3 }); // "Reconnecting… (attempt 3)"
 */
import { lang } from "../state/prefs.js";
import baseEn from "./en-US.js";
import baseZh from "./zh-CN.js";
import runEn from "./run.en-US.js";
import runZh from "./run.zh-CN.js";
import toolsEn from "./tools.en-US.js";
import toolsZh from "./tools.zh-CN.js";
import interactEn from "./interact.en-US.js";
import interactZh from "./interact.zh-CN.js";
import projectsEn from "./projects.en-US.js";
import projectsZh from "./projects.zh-CN.js";
import composerEn from "./composer.en-US.js";
import composerZh from "./composer.zh-CN.js";
import historyEn from "./history.en-US.js";
import historyZh from "./history.zh-CN.js";
import searchEn from "./search.en-US.js";
import searchZh from "./search.zh-CN.js";
import panelEn from "./panel.en-US.js";
import panelZh from "./panel.zh-CN.js";
import homeEn from "./home.en-US.js";
import homeZh from "./home.zh-CN.js";
import safetyEn from "./safety.en-US.js";
import safetyZh from "./safety.zh-CN.js";
import commandsEn from "./commands.en-US.js";
import commandsZh from "./commands.zh-CN.js";
import subagentsEn from "./subagents.en-US.js";
import subagentsZh from "./subagents.zh-CN.js";
import mcpEn from "./mcp.en-US.js";
import mcpZh from "./mcp.zh-CN.js";
import terminalEn from "./terminal.en-US.js";
import terminalZh from "./terminal.zh-CN.js";
import remoteEn from "./remote.en-US.js";
import remoteZh from "./remote.zh-CN.js";
import gitEn from "./git.en-US.js";
import gitZh from "./git.zh-CN.js";
import notifyEn from "./notify.en-US.js";
import notifyZh from "./notify.zh-CN.js";
import skillsEn from "./skills.en-US.js";
import skillsZh from "./skills.zh-CN.js";
import assistantsEn from "./assistants.en-US.js";
import assistantsZh from "./assistants.zh-CN.js";
import memoryEn from "./memory.en-US.js";
import memoryZh from "./memory.zh-CN.js";
import carryEn from "./carry.en-US.js";
import carryZh from "./carry.zh-CN.js";
import automationsEn from "./automations.en-US.js";
import automationsZh from "./automations.zh-CN.js";
import usageEn from "./usage.en-US.js";
import usageZh from "./usage.zh-CN.js";
import paletteEn from "./palette.en-US.js";
import paletteZh from "./palette.zh-CN.js";
import hooksEn from "./hooks.en-US.js";
import hooksZh from "./hooks.zh-CN.js";
import notesEn from "./notes.en-US.js";
import notesZh from "./notes.zh-CN.js";
import pluginsEn from "./plugins.en-US.js";
import pluginsZh from "./plugins.zh-CN.js";
import netEn from "./net.en-US.js";
import netZh from "./net.zh-CN.js";
import updateEn from "./update.en-US.js";
import updateZh from "./update.zh-CN.js";

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
const zh = {
  ...baseZh,
  ...runZh,
  ...toolsZh,
  ...interactZh,
  ...projectsZh,
  ...composerZh,
  ...historyZh,
  ...searchZh,
  ...panelZh,
  ...homeZh,
  ...safetyZh,
  ...commandsZh,
  ...subagentsZh,
  ...mcpZh,
  ...terminalZh,
  ...remoteZh,
  ...gitZh,
  ...notifyZh,
  ...skillsZh,
  ...assistantsZh,
  ...memoryZh,
  ...carryZh,
  ...automationsZh,
  ...usageZh,
  ...hooksZh,
  ...notesZh,
  ...paletteZh,
  ...pluginsZh,
  ...netZh,
  ...updateZh,
};

/** @typedef {keyof typeof en} MsgKey a message key (every key has an English text) */

/** @type {Record<string, Record<string, string>>} */
export const DICTS = { "en-US": en, "zh-CN": zh };

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
  const dict = DICTS[lang.value] ?? en;
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
  const dict = DICTS[lang.value] ?? en;
  const one = n === 1 && dict[`${key}.one`] !== undefined;
  return t(/** @type {any} */ (one ? `${key}.one` : key), { n, ...params });
}
