/**
 * The skills as the server finds them (`skills.list` for the shown task's project), the
 * page's search, the preview and the installs. Any client's change is announced on the
 * `skills` topic and every open page lists again.
 *
 * @typedef {import("../../protocol/index.ts").SkillsOverview} SkillsOverview
 * @typedef {import("../../protocol/index.ts").SkillInfo} SkillInfo
 */
import { computed, signal } from "@preact/signals";
import { SKILL_LIMITS, SKILLS_TOPIC } from "../../protocol/index.ts";
import { connState, errorCode, onSync, onTopic, request } from "./connection.js";
import { currentTask } from "./tasks.js";

export const skillsOverview = signal(/** @type {SkillsOverview|null} */ (null));
export const skillsError = signal(/** @type {string|null} */ (null));
export const skillsQuery = signal("");
/** The skill whose SKILL.md is shown: null = none. */
export const skillPreview = signal(
  /** @type {{key: string, name: string, path: string, text: string|null, error: string|null}|null} */ (
    null
  ),
);

const projectArgs = () => {
  const projectPath = currentTask.value?.projectPath;
  return projectPath ? { projectPath } : {};
};

/**
 * Whether a skill matches the search (name, description, key; case-insensitive).
 * @param {SkillInfo} s @param {string} q
 */
export function skillMatches(s, q) {
  const n = q.trim().toLowerCase();
  return !n || `${s.name}\n${s.description}\n${s.key}`.toLowerCase().includes(n);
}

export const shownSkills = computed(() =>
  (skillsOverview.value?.skills ?? []).filter((s) => skillMatches(s, skillsQuery.value))
);

export async function loadSkills() {
  if (connState.value !== "open") return;
  try {
    skillsOverview.value = await request("skills.list", projectArgs());
    skillsError.value = null;
  } catch (e) {
    // A project that is not one of the server's: list without it.
    if (errorCode(e) === "not_found") {
      skillsOverview.value = await request("skills.list", {}).catch(() => null);
    } else if (errorCode(e) !== "disconnected") {
      skillsError.value = e instanceof Error ? e.message : String(e);
    }
  }
}

onSync(() => {
  if (skillsOverview.value) void loadSkills();
}, () => [SKILLS_TOPIC]);
onTopic(SKILLS_TOPIC, () => {
  if (skillsOverview.value) void loadSkills();
});

/**
 * Turns a skill on or off; returns an error message or null.
 * @param {string} key @param {boolean} enabled
 */
export async function setSkillEnabled(key, enabled) {
  try {
    skillsOverview.value = await request("skills.setEnabled", { key, enabled, ...projectArgs() });
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Opens the preview of a skill and loads its SKILL.md. @param {SkillInfo} s */
export async function previewSkill(s) {
  skillPreview.value = { key: s.key, name: s.name, path: s.path, text: null, error: null };
  try {
    const r = await request("skills.read", { key: s.key, ...projectArgs() });
    if (skillPreview.value?.key === s.key) {
      skillPreview.value = { ...skillPreview.value, text: r.text };
    }
  } catch (e) {
    if (skillPreview.value?.key === s.key) {
      skillPreview.value = {
        ...skillPreview.value,
        error: e instanceof Error ? e.message : String(e),
      };
    }
  }
}

/** The body of a SKILL.md without its frontmatter (the preview shows name and path above). */
export function skillBody(/** @type {string} */ text) {
  const m = /^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n(---|\.\.\.)[ \t]*(\r?\n|$)/.exec(text);
  return m ? text.slice(m[0].length) : text;
}

/**
 * Installs from a folder on the server; returns {name} or {error}.
 * @param {string} path
 */
export async function installSkillFolder(path) {
  try {
    const r = await request("skills.installFolder", { path });
    await loadSkills();
    return { name: r.name };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Uploads a zip (POST /api/uploads) and installs it; returns {name} or {error}.
 * @param {File} file
 */
export async function installSkillZip(file) {
  if (file.size > SKILL_LIMITS.zipBytes) {
    return { error: `${file.name}: larger than ${SKILL_LIMITS.zipBytes / 1048576} MB` };
  }
  try {
    const q = new URLSearchParams({ name: file.name || "skill.zip", mime: "application/zip" });
    const res = await fetch(`/api/uploads?${q}`, {
      method: "POST",
      headers: { "content-type": "application/zip" },
      body: file,
    });
    const body = await res.json().catch(() => null);
    if (res.status !== 201 || !body?.attachment?.id) {
      return { error: body?.error?.message ?? `HTTP ${res.status}` };
    }
    const r = await request("skills.installZip", { attachmentId: body.attachment.id });
    await loadSkills();
    return { name: r.name };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** Removes a skill installed into ReinAgent's folder; returns an error message or null. */
export async function removeSkill(/** @type {string} */ key) {
  try {
    await request("skills.remove", { key });
    await loadSkills();
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
