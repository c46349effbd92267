/**
 * `reinagent skills list|enable|disable NAME`: the skills found for the data dir (and a
 * project with --project) and their switches, kept in `<data dir>/skills.json` — edited
 * directly (atomic writes; a corrupt file is reported and left alone), so it works while
 * a server runs: the server reads the switches at every turn.
 *
 * NAME is a skill's key (`claude:pdf`), its name or its folder name; a name found in two
 * places must be given as a key. Exit codes: 0 ok, 1 failed, 2 bad input.
 */
import { resolve } from "../../lib/path.ts";
import { resolveHome } from "../home.ts";
import { discoverSkills, type FoundSkill } from "../skills/discover.ts";
import { setSwitch, SkillSwitchesError } from "../skills/switches.ts";
import type { SkillsCommand } from "./skills_args.ts";

export { parseSkillsArgs, type SkillsCommand } from "./skills_args.ts";

export interface SkillsIo {
  out(line: string): void;
  err(line: string): void;
}

/** The skills NAME names: by key, else by name or folder name (case-insensitive). */
export function matchSkill(skills: FoundSkill[], name: string): FoundSkill[] {
  const byKey = skills.filter((s) => s.key === name);
  if (byKey.length) return byKey;
  const n = name.toLowerCase();
  return skills.filter((s) =>
    s.name.toLowerCase() === n || s.key.slice(s.key.indexOf(":") + 1).toLowerCase() === n
  );
}

export async function skillsCommand(cmd: SkillsCommand, io: SkillsIo): Promise<number> {
  const home = resolveHome(cmd.home);
  const workspace = cmd.project ? resolve(cmd.project) : null;
  const { skills, overview } = await discoverSkills({ home, workspace });
  if (cmd.action === "list") {
    if (cmd.json) {
      io.out(JSON.stringify(overview, null, 2));
      return overview.fileError ? 1 : 0;
    }
    if (overview.fileError) io.err(`⚠ ${overview.fileError}`);
    if (!skills.length) {
      io.out("No skills found. Searched:");
      for (const d of overview.dirs) io.out(`  ${d.path}`);
    }
    for (const s of skills) {
      const state = s.problem ? "✗" : s.enabled ? "on " : "off";
      io.out(`${state}  ${s.key}  ${s.name}${s.problem ? `  (${s.problem})` : ""}`);
      if (s.description) io.out(`     ${s.description.slice(0, 120)}`);
      io.out(`     ${s.path}`);
    }
    for (const p of overview.problems) io.err(`⚠ ${p.path}: ${p.message}`);
    return overview.fileError ? 1 : 0;
  }
  const found = matchSkill(skills, cmd.name);
  if (!found.length) {
    io.err(`reinagent: no skill "${cmd.name}" was found (reinagent skills list shows them)`);
    return 2;
  }
  if (found.length > 1) {
    io.err(
      `reinagent: "${cmd.name}" is found in several places; give one of: ${
        found.map((s) => s.key).join(", ")
      }`,
    );
    return 2;
  }
  const s = found[0];
  const on = cmd.action === "enable";
  if (on && s.problem) {
    io.err(`reinagent: ${s.key} cannot be enabled: ${s.problem}`);
    return 1;
  }
  try {
    await setSwitch(home, s.key, on);
  } catch (e) {
    if (e instanceof SkillSwitchesError) {
      io.err(`reinagent: ${e.message}`);
      return 1;
    }
    throw e;
  }
  io.out(`${on ? "Enabled" : "Disabled"} skill ${s.key} (${s.name}).`);
  return 0;
}
