/**
 * Handlers for the Skills page (protocol/skills.ts): the skills found, their switches
 * (`<data dir>/skills.json`, never overwritten when corrupt), the SKILL.md preview and
 * installs into `<data dir>/skills`. Every change is announced on the `skills` topic.
 */
import { join } from "../../lib/path.ts";
import { SKILL_LIMITS, type SKILL_OP_ARGS, SKILLS_TOPIC } from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import type { OpContext } from "./context.ts";
import type { OpHandlers } from "./types.ts";
import { commandPolicy } from "../agent/command_policy.ts";
import { discoverSkills, type SkillScope, skillsDir } from "../skills/discover.ts";
import { setSwitch, SkillSwitchesError } from "../skills/switches.ts";
import { forgetSkills } from "../skills/reminder.ts";
import { InstallError, installFolder, installZip } from "../skills/install.ts";
import { readUpload, uploadDataPath } from "../composer/uploads_store.ts";
import { expandPath } from "./projects_ops.ts";
import { isInside } from "../../tools/paths.ts";

/** The data folder and the user's protected folders: no skill may lead into them. */
export function hiddenOf(ctx: Pick<OpContext, "store" | "home">): string[] {
  return ctx.store.repos ? commandPolicy(ctx.store.repos, ctx.home).hidden : [ctx.home];
}

/**
 * A project's skills are listed only for a project the user added; without one, those of
 * the default project (where tasks without a project run).
 */
function scopeOf(ctx: OpContext, projectPath?: string): SkillScope {
  let workspace: string | null = join(ctx.home, "DefaultProject");
  if (projectPath) {
    const known = projectPath === join(ctx.home, "DefaultProject") ||
      ctx.store.repos?.projects.byPath(projectPath) != null;
    if (!known) throw new OpError("not_found", `${projectPath} is not a project of this server`);
    workspace = projectPath;
  }
  return { home: ctx.home, workspace, hidden: hiddenOf(ctx) };
}

function changed(ctx: OpContext): void {
  forgetSkills();
  ctx.hub.publish(SKILLS_TOPIC, { kind: "changed" });
}

async function findSkill(ctx: OpContext, key: string, projectPath?: string) {
  const { skills } = await discoverSkills(scopeOf(ctx, projectPath));
  const s = skills.find((x) => x.key === key);
  if (!s) throw new OpError("not_found", `no skill ${key} was found`);
  return s;
}

function installFailed(e: unknown): never {
  if (e instanceof InstallError) throw new OpError(e.code, e.message);
  throw e;
}

export const SKILL_HANDLERS: OpHandlers<keyof typeof SKILL_OP_ARGS> = {
  "skills.list": async (ctx, a) => (await discoverSkills(scopeOf(ctx, a.projectPath))).overview,

  "skills.setEnabled": async (ctx, a) => {
    const s = await findSkill(ctx, a.key, a.projectPath);
    if (a.enabled && s.problem) {
      throw new OpError("invalid_args", `${s.name} cannot be turned on: ${s.problem}`);
    }
    try {
      await setSwitch(ctx.home, a.key, a.enabled);
    } catch (e) {
      if (e instanceof SkillSwitchesError) throw new OpError("conflict", e.message);
      throw e;
    }
    changed(ctx);
    return (await discoverSkills(scopeOf(ctx, a.projectPath))).overview;
  },

  "skills.read": async (ctx, a) => {
    const s = await findSkill(ctx, a.key, a.projectPath);
    // Discovery checked that SKILL.md stays inside the skill's real folder.
    const bytes = await Deno.readFile(join(s.realDir, "SKILL.md")).catch((e) => {
      throw new OpError("not_found", `cannot read ${s.path}: ${(e as Error).message}`);
    });
    const cut = bytes.subarray(0, SKILL_LIMITS.fileBytes);
    return {
      key: s.key,
      path: s.path,
      text: new TextDecoder().decode(cut),
      truncated: bytes.length > cut.length,
    };
  },

  "skills.installFolder": async (ctx, a) => {
    const name = await installFolder(ctx.home, expandPath(a.path), hiddenOf(ctx)).catch(
      installFailed,
    );
    changed(ctx);
    return { key: `reinagent:${name}`, name };
  },

  "skills.installZip": async (ctx, a) => {
    const meta = await readUpload(ctx.home, a.attachmentId);
    if (!meta) throw new OpError("not_found", "no such upload");
    if (meta.size > SKILL_LIMITS.zipBytes) {
      throw new OpError(
        "too_large",
        `the zip is larger than ${SKILL_LIMITS.zipBytes / 1048576} MB`,
      );
    }
    const bytes = await Deno.readFile(uploadDataPath(ctx.home, a.attachmentId));
    const fallback = meta.name.replace(/\.zip$/i, "") || "skill";
    const name = await installZip(ctx.home, bytes, fallback).catch(installFailed);
    changed(ctx);
    return { key: `reinagent:${name}`, name };
  },

  "skills.remove": async (ctx, a) => {
    if (!a.key.startsWith("reinagent:")) {
      throw new OpError(
        "invalid_args",
        "only skills installed into ReinAgent's folder can be removed here",
      );
    }
    const s = await findSkill(ctx, a.key);
    const root = skillsDir(ctx.home);
    // The folder itself is removed (a link: only the link), never what it points to.
    if (!isInside(s.dir, root) || s.dir === root) {
      throw new OpError("invalid_args", "not an installed skill");
    }
    await Deno.remove(s.dir, { recursive: true });
    changed(ctx);
    return { key: a.key };
  },
};
