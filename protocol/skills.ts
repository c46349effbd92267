/**
 * Skills: folders holding a `SKILL.md` (frontmatter `name` + `description`,
 * the format of Claude Code and Codex skills), found in the data folder, the project,
 * and the folders of Claude Code, Codex and the Agent Skills convention. The ops of the
 * Skills page; pure, shared by the server, the CLI and the UI.
 */
import { bool, obj, type Schema, str } from "./schema.ts";
import { ATTACHMENT_ID_RE } from "./composer.ts";

/**
 * Where a skill was found. `reinagent` = `<data dir>/skills` (what the user installed
 * into ReinAgent: on unless turned off); the others are off until turned on.
 */
export const SKILL_SOURCES = [
  "reinagent",
  "workspace",
  "claude",
  "codex",
  "agents",
  /** A switched-on plugin's skills folder (on, as the plugin is). */
  "plugin",
] as const;
export type SkillSource = typeof SKILL_SOURCES[number];

export const SKILL_LIMITS = {
  /** Longest name kept (characters); longer ones are cut. */
  nameChars: 64,
  /** Longest description kept in the list and the reminder (characters). */
  descriptionChars: 1024,
  /** Largest SKILL.md read, in bytes. */
  fileBytes: 256 * 1024,
  /** Skill folders looked at per source folder. */
  perSource: 200,
  /** Enabled skills listed in the reminder. */
  inReminder: 100,
  /** A zip to install, in bytes. */
  zipBytes: 10 * 1024 * 1024,
  /** Everything a skill installs (unpacked or copied), in bytes. */
  installBytes: 50 * 1024 * 1024,
  /** Files a skill installs. */
  installFiles: 1000,
} as const;

/** A skill's key: `<source>:<folder name>` (names may repeat across sources). */
export const SKILL_KEY_RE =
  // deno-lint-ignore no-control-regex
  /^(reinagent|workspace|claude|codex|agents):[^\u0000-\u001f/\\]{1,255}$/;

export interface SkillInfo {
  key: string;
  source: SkillSource;
  /** Frontmatter `name` (else the folder name), control characters removed, bounded. */
  name: string;
  description: string;
  /** The folder (as found, links not resolved) and its SKILL.md. */
  dir: string;
  path: string;
  enabled: boolean;
  /** Why it cannot be used (no description, unreadable …): never listed to the model. */
  problem: string | null;
}

export interface SkillProblem {
  path: string;
  message: string;
}

export interface SkillsOverview {
  skills: SkillInfo[];
  /** Folders refused (links into the data folder, too many, unreadable). */
  problems: SkillProblem[];
  /** The folders searched, in order. */
  dirs: { source: SkillSource; path: string }[];
  /** `<data dir>/skills.json` is corrupt: switches are refused until it is fixed. */
  fileError: string | null;
}

export const SKILLS_TOPIC = "skills";
/** Pushed on {@link SKILLS_TOPIC}: something changed, pages list again. */
export type SkillsEvent = { kind: "changed" };

const skillKey = str({ min: 3, max: 300, pattern: SKILL_KEY_RE });
const projectPath = str({ min: 1, max: 4096 });

export const SKILL_OP_ARGS = {
  /** Every skill found, with the project's (`projectPath`, else the default project's). */
  "skills.list": obj({ "projectPath?": projectPath }),
  "skills.setEnabled": obj({ key: skillKey, enabled: bool, "projectPath?": projectPath }),
  /** The SKILL.md text, for the preview. */
  "skills.read": obj({ key: skillKey, "projectPath?": projectPath }),
  /** Copies a folder on the server (holding SKILL.md) into `<data dir>/skills`. */
  "skills.installFolder": obj({ path: str({ min: 1, max: 4096 }) }),
  /** Unpacks an uploaded zip (POST /api/uploads) into `<data dir>/skills`. */
  "skills.installZip": obj({ attachmentId: str({ min: 33, max: 33, pattern: ATTACHMENT_ID_RE }) }),
  /** Removes a skill installed into `<data dir>/skills` (other sources are not ours). */
  "skills.remove": obj({ key: skillKey }),
} satisfies Record<string, Schema>;

export interface SkillOpResults {
  "skills.list": SkillsOverview;
  "skills.setEnabled": SkillsOverview;
  "skills.read": { key: string; path: string; text: string; truncated: boolean };
  "skills.installFolder": { key: string; name: string };
  "skills.installZip": { key: string; name: string };
  "skills.remove": { key: string };
}
