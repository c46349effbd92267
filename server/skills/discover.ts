/**
 * Finding skills: the folders searched, and in each the sub-folders holding a SKILL.md,
 * read with what is wrong with them instead of skipping them silently. A folder that
 * leads (through links) into the data folder or a protected folder is refused — it
 * would hand the agent read access to ReinAgent's own secrets — and a project's skill
 * must stay inside the project.
 */
import { join } from "../../lib/path.ts";
import {
  SKILL_LIMITS,
  type SkillInfo,
  type SkillProblem,
  type SkillSource,
  type SkillsOverview,
} from "../../protocol/skills.ts";
import { isInside } from "../../tools/paths.ts";
import { cleanText, parseSkillFile } from "./frontmatter.ts";
import { pluginSkillDirs } from "../plugins/contributions.ts";
import { isEnabled, readSwitches, type SkillSwitches } from "./switches.ts";

export const SKILL_FILE = "SKILL.md";

export interface SkillScope {
  /** The data folder. */
  home: string;
  /** The project whose `.reinagent/skills` is searched (absent: none). */
  workspace?: string | null;
  /** The user's home folder (`~`); default $HOME. */
  userHome?: string | null;
  /** Folders no skill may lead into (default: the data folder). */
  hidden?: string[];
}

/** A skill found, with its folder's real path (what read access is granted on). */
export interface FoundSkill extends SkillInfo {
  realDir: string;
}

export const skillsDir = (home: string) => join(home, "skills");

/** The folders searched, in order. */
export function skillDirs(scope: SkillScope): { source: SkillSource; path: string }[] {
  const userHome = scope.userHome === undefined
    ? Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? null
    : scope.userHome;
  const dirs: { source: SkillSource; path: string }[] = [
    { source: "reinagent", path: skillsDir(scope.home) },
  ];
  if (scope.workspace) {
    dirs.push({ source: "workspace", path: join(scope.workspace, ".reinagent", "skills") });
  }
  if (userHome) {
    dirs.push(
      { source: "claude", path: join(userHome, ".claude", "skills") },
      { source: "codex", path: join(userHome, ".codex", "skills") },
      { source: "agents", path: join(userHome, ".agents", "skills") },
    );
  }
  return dirs;
}

function real(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

/** Why a skill folder (real path `dir`) may not be used, or null. */
async function refusal(
  dir: string,
  source: SkillSource,
  scope: SkillScope,
  confine?: string,
): Promise<string | null> {
  // A plugin's skills folder was checked with its plugin: a skill must stay inside it.
  if (source === "plugin") {
    return confine && isInside(dir, confine) ? null : `it leads to ${dir}, outside its plugin`;
  }
  const ours = await real(skillsDir(scope.home));
  const ws = source === "workspace" && scope.workspace ? real(scope.workspace) : null;
  if (source === "workspace" && (!ws || !isInside(dir, ws))) {
    return `it leads to ${dir}, outside the project`;
  }
  // Inside ReinAgent's own skills folder is where installs go; inside the project is the
  // project's (the default project lives in the data folder) — as for the file tools,
  // the deeper folder decides.
  const bases = [ours, ws].filter((b): b is string => b !== null && dir !== b && isInside(dir, b));
  for (const h of scope.hidden ?? [scope.home]) {
    const rh = real(h);
    if (!rh) continue;
    if (rh === dir) return `it leads to ${h}, ReinAgent's data folder or a protected folder`;
    if (isInside(rh, dir)) return `it leads to ${dir}, which holds the protected folder ${h}`;
    const deeper = bases.some((b) => b !== rh && isInside(b, rh));
    if (isInside(dir, rh) && !deeper) {
      return `it leads into ${h} (ReinAgent's data folder or a protected folder)`;
    }
  }
  return null;
}

async function readSkill(
  dir: string,
  folder: string,
  source: SkillSource,
  switches: SkillSwitches,
  scope: SkillScope,
  problems: SkillProblem[],
  confine?: string,
): Promise<FoundSkill | null> {
  const realDir = real(dir);
  if (!realDir) return null;
  try {
    if (!Deno.statSync(realDir).isDirectory) return null;
  } catch {
    return null;
  }
  const path = join(dir, SKILL_FILE);
  const refused = await refusal(realDir, source, scope, confine);
  if (refused) {
    problems.push({ path: dir, message: `refused: ${refused}` });
    return null;
  }
  const realFile = real(path);
  if (!realFile) return null; // a folder without SKILL.md is not a skill
  const key = `${source}:${folder}`;
  const base = {
    key,
    source,
    name: cleanText(folder, SKILL_LIMITS.nameChars),
    description: "",
    dir,
    path,
    realDir,
    enabled: isEnabled(switches, key, source),
  };
  const bad = (problem: string): FoundSkill => ({ ...base, enabled: false, problem });
  if (!isInside(realFile, realDir)) return bad("its SKILL.md links outside the skill's folder");
  let text: string;
  try {
    const st = Deno.statSync(realFile);
    if (!st.isFile) return bad("SKILL.md is not a file");
    if (st.size > SKILL_LIMITS.fileBytes) {
      return bad(`SKILL.md is larger than ${SKILL_LIMITS.fileBytes / 1024} KB`);
    }
    // Asynchronous: a project's skill is the model's to write (see readAgentsFile).
    text = new TextDecoder("utf-8", { fatal: true }).decode(await Deno.readFile(realFile));
  } catch (e) {
    return bad(e instanceof TypeError ? "SKILL.md is not UTF-8 text" : (e as Error).message);
  }
  const meta = parseSkillFile(text);
  const named = { ...base, name: meta.name ?? base.name, description: meta.description ?? "" };
  if (!meta.description) {
    return { ...named, enabled: false, problem: "SKILL.md has no description in its frontmatter" };
  }
  return { ...named, problem: null };
}

/** Every skill of the scope (sorted by source, then name), and the problems found. */
export async function discoverSkills(
  scope: SkillScope,
): Promise<{ skills: FoundSkill[]; overview: SkillsOverview }> {
  const plugins = await pluginSkillDirs(scope.home, scope.workspace ?? null);
  const dirs = [
    ...skillDirs(scope),
    ...plugins.map(({ path }) => ({ source: "plugin" as const, path })),
  ];
  const problems: SkillProblem[] = [];
  const read = readSwitches(scope.home);
  const switches = read.ok ? read.switches : { enabled: [], disabled: [] };
  const skills: FoundSkill[] = [];
  for (const [i, d] of dirs.entries()) {
    // A plugin's skills are named after it, so two plugins' folders never collide.
    const plugin = d.source === "plugin" ? plugins[i - (dirs.length - plugins.length)] : null;
    let names: string[] = [];
    try {
      for (const e of Deno.readDirSync(d.path)) {
        if ((e.isDirectory || e.isSymlink) && !e.name.startsWith(".")) names.push(e.name);
      }
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) {
        problems.push({ path: d.path, message: `cannot read the folder: ${(e as Error).message}` });
      }
      continue;
    }
    names.sort();
    if (names.length > SKILL_LIMITS.perSource) {
      problems.push({
        path: d.path,
        message: `${names.length} folders; only the first ${SKILL_LIMITS.perSource} are read`,
      });
      names = names.slice(0, SKILL_LIMITS.perSource);
    }
    for (const name of names) {
      // deno-lint-ignore no-control-regex
      if (/[\u0000-\u001f\u007f]/.test(name) || name.length > 255) {
        problems.push({
          path: d.path,
          message: "a folder name with control characters is skipped",
        });
        continue;
      }
      const s = await readSkill(
        join(d.path, name),
        plugin ? `${plugin.plugin}/${name}` : name,
        d.source,
        switches,
        scope,
        problems,
        plugin?.path,
      );
      if (s) skills.push(s);
    }
  }
  // A broken switch file turns nothing on (only the defaults apply) and is shown.
  return {
    skills,
    overview: {
      skills: skills.map(({ realDir: _, ...s }) => s),
      problems,
      dirs,
      fileError: read.ok ? null : read.error,
    },
  };
}

/** The enabled, usable skills of the scope. */
export async function enabledSkills(scope: SkillScope): Promise<FoundSkill[]> {
  const { skills } = await discoverSkills(scope);
  return skills.filter((s) => s.enabled && !s.problem);
}
