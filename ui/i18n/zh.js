/** Chinese (Simplified) strings of every area, merged: loaded only when zh-CN is chosen. */
import baseZh from "./zh-CN.js";
import runZh from "./run.zh-CN.js";
import toolsZh from "./tools.zh-CN.js";
import interactZh from "./interact.zh-CN.js";
import projectsZh from "./projects.zh-CN.js";
import composerZh from "./composer.zh-CN.js";
import historyZh from "./history.zh-CN.js";
import searchZh from "./search.zh-CN.js";
import panelZh from "./panel.zh-CN.js";
import homeZh from "./home.zh-CN.js";
import safetyZh from "./safety.zh-CN.js";
import commandsZh from "./commands.zh-CN.js";
import subagentsZh from "./subagents.zh-CN.js";
import mcpZh from "./mcp.zh-CN.js";
import terminalZh from "./terminal.zh-CN.js";
import remoteZh from "./remote.zh-CN.js";
import gitZh from "./git.zh-CN.js";
import notifyZh from "./notify.zh-CN.js";
import skillsZh from "./skills.zh-CN.js";
import assistantsZh from "./assistants.zh-CN.js";
import memoryZh from "./memory.zh-CN.js";
import carryZh from "./carry.zh-CN.js";
import automationsZh from "./automations.zh-CN.js";
import usageZh from "./usage.zh-CN.js";
import paletteZh from "./palette.zh-CN.js";
import hooksZh from "./hooks.zh-CN.js";
import notesZh from "./notes.zh-CN.js";
import pluginsZh from "./plugins.zh-CN.js";
import netZh from "./net.zh-CN.js";
import updateZh from "./update.zh-CN.js";

export default {
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
