/**
 * English (United States) strings of every area, merged. The build keeps in the first
 * screen's script only the keys that script uses; the others become a chunk of their own
 * (see en_more.js).
 */
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

export default {
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
