/**
 * `<data dir>/skills.json`: which skills the user turned on or off, by key —
 * `{"enabled": [...], "disabled": [...]}`. A skill in neither list has its source's
 * default (on for `<data dir>/skills`, off elsewhere). A corrupt file is reported and
 * never overwritten; writes are atomic (temp file + rename).
 */
import { join } from "../../lib/path.ts";
import { SKILL_KEY_RE, type SkillSource } from "../../protocol/skills.ts";

export const SKILLS_FILE = "skills.json";
const MAX_KEYS = 2000;

export interface SkillSwitches {
  enabled: string[];
  disabled: string[];
}

export type SwitchesRead = { ok: true; switches: SkillSwitches } | { ok: false; error: string };

export class SkillSwitchesError extends Error {}

const keysOf = (v: unknown, field: string): string[] => {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > MAX_KEYS) {
    throw new SkillSwitchesError(`"${field}" must be a list of at most ${MAX_KEYS} skill keys`);
  }
  for (const k of v) {
    if (typeof k !== "string" || !SKILL_KEY_RE.test(k)) {
      throw new SkillSwitchesError(`"${field}" holds an invalid skill key ${JSON.stringify(k)}`);
    }
  }
  return v as string[];
};

export function readSwitches(home: string): SwitchesRead {
  const path = join(home, SKILLS_FILE);
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      return { ok: true, switches: { enabled: [], disabled: [] } };
    }
    return { ok: false, error: `${path} cannot be read: ${(e as Error).message}` };
  }
  try {
    const raw = JSON.parse(text);
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw new SkillSwitchesError("it must hold a JSON object");
    }
    return {
      ok: true,
      switches: {
        enabled: keysOf(raw.enabled, "enabled"),
        disabled: keysOf(raw.disabled, "disabled"),
      },
    };
  } catch (e) {
    return { ok: false, error: `${path} is not valid (fix or remove it): ${(e as Error).message}` };
  }
}

/** Whether a skill is on: the user's switch, else its source's default. */
export function isEnabled(s: SkillSwitches, key: string, source: SkillSource): boolean {
  if (s.disabled.includes(key)) return false;
  if (s.enabled.includes(key)) return true;
  return source === "reinagent" || source === "plugin";
}

// One writer at a time inside this process (the page and a CLI in another process are
// rare enough that the atomic rename is the guard there).
let chain: Promise<unknown> = Promise.resolve();

/** Sets one switch; throws {@link SkillSwitchesError} when the file is corrupt. */
export function setSwitch(home: string, key: string, enabled: boolean): Promise<void> {
  const run = chain.then(async () => {
    const read = readSwitches(home);
    if (!read.ok) throw new SkillSwitchesError(read.error);
    const s = read.switches;
    const next: SkillSwitches = {
      enabled: s.enabled.filter((k) => k !== key),
      disabled: s.disabled.filter((k) => k !== key),
    };
    (enabled ? next.enabled : next.disabled).push(key);
    if (next.enabled.length + next.disabled.length > MAX_KEYS) {
      throw new SkillSwitchesError(`at most ${MAX_KEYS} skill switches are kept`);
    }
    await Deno.mkdir(home, { recursive: true, mode: 0o700 });
    const path = join(home, SKILLS_FILE);
    const tmp = `${path}.${crypto.randomUUID()}.tmp`;
    await Deno.writeTextFile(tmp, JSON.stringify(next, null, 2) + "\n", { mode: 0o600 });
    await Deno.rename(tmp, path);
  });
  chain = run.catch(() => {});
  return run;
}
