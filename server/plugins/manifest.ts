/**
 * Reads a plugin's `plugin.json`: name, version, description and what it contributes —
 * `commands` and `skills` (folders inside the plugin) and `hooks` (the hooks format of
 * `config.json`, parsed by the hooks feature). A manifest with any problem is reported
 * whole and nothing of the plugin is used; a contribution folder that is absolute, climbs
 * out with `..` or leads out of the plugin through a link is refused.
 */
import { isAbsolute, join, normalize, sep } from "../../lib/path.ts";
import { PLUGIN_LIMITS, PLUGIN_NAME_RE } from "../../protocol/plugins.ts";
import type { HookView } from "../../protocol/hooks.ts";
import { fingerprintOf, parseHooks } from "../agent/hooks/config.ts";
import { isInside } from "../../tools/paths.ts";

export const MANIFEST_FILE = "plugin.json";

export interface Manifest {
  name: string;
  version: string;
  description: string;
  commandsDir: string | null;
  skillsDir: string | null;
  hooks: HookView[];
  fingerprint: string;
}

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

function text(json: Record<string, unknown>, key: string, max: number, required: boolean): string {
  const v = json[key];
  if (v === undefined && !required) return "";
  if (typeof v !== "string" || (required && !v.trim())) {
    throw new Error(`"${key}" must be a${required ? " non-empty" : ""} string`);
  }
  if (v.length > max) throw new Error(`"${key}" is longer than ${max} characters`);
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(v)) {
    throw new Error(`"${key}" has control characters`);
  }
  return v.trim();
}

/** A contribution folder: relative, inside the plugin after resolving links; null if absent. */
function folder(
  json: Record<string, unknown>,
  key: "commands" | "skills",
  realDir: string,
): string | null {
  const v = json[key];
  if (v === undefined) return null;
  if (typeof v !== "string" || !v.trim() || v.length > 200) {
    throw new Error(`"${key}" must be a folder path inside the plugin`);
  }
  const rel = normalize(v.trim());
  if (isAbsolute(v) || rel === ".." || rel.startsWith(`..${sep}`) || rel.startsWith("../")) {
    throw new Error(`"${key}": ${v} is outside the plugin folder`);
  }
  const path = join(realDir, rel);
  let real: string;
  try {
    real = Deno.realPathSync(path);
  } catch {
    throw new Error(`"${key}": the folder ${v} does not exist`);
  }
  if (!isInside(real, realDir)) {
    throw new Error(`"${key}": ${v} leads to ${real}, outside the plugin folder`);
  }
  if (!Deno.statSync(real).isDirectory) throw new Error(`"${key}": ${v} is not a folder`);
  return real;
}

/** The manifest of the plugin whose real folder is `realDir`, or the problem. */
export async function readManifest(
  realDir: string,
): Promise<{ ok: true; manifest: Manifest } | { ok: false; error: string }> {
  const path = join(realDir, MANIFEST_FILE);
  let raw: string;
  try {
    const real = Deno.realPathSync(path);
    if (!isInside(real, realDir)) {
      return { ok: false, error: `${MANIFEST_FILE} leads out of the plugin folder` };
    }
    const st = Deno.statSync(real);
    if (!st.isFile) return { ok: false, error: `${MANIFEST_FILE} is not a file` };
    if (st.size > PLUGIN_LIMITS.manifestBytes) {
      return {
        ok: false,
        error: `${MANIFEST_FILE} is larger than ${PLUGIN_LIMITS.manifestBytes} bytes`,
      };
    }
    // Asynchronous: a workspace's plugins are the model's to write (see readAgentsFile).
    raw = new TextDecoder("utf-8", { fatal: true }).decode(await Deno.readFile(real));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { ok: false, error: `no ${MANIFEST_FILE}` };
    if (e instanceof TypeError) return { ok: false, error: `${MANIFEST_FILE} is not UTF-8` };
    return { ok: false, error: `${MANIFEST_FILE} cannot be read: ${(e as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    return { ok: false, error: `${MANIFEST_FILE} is not valid JSON: ${(e as Error).message}` };
  }
  if (!isRecord(json)) return { ok: false, error: `${MANIFEST_FILE} is not a JSON object` };
  try {
    const name = text(json, "name", PLUGIN_LIMITS.nameChars, true);
    if (!PLUGIN_NAME_RE.test(name)) {
      throw new Error(`"name": "${name}" may hold only letters, digits and . _ -`);
    }
    let hooks: HookView[] = [];
    if (json.hooks !== undefined) {
      const parsed = parseHooks(json.hooks);
      if ("error" in parsed) throw new Error(parsed.error);
      hooks = parsed.hooks;
    }
    return {
      ok: true,
      manifest: {
        name,
        version: text(json, "version", PLUGIN_LIMITS.versionChars, false),
        description: text(json, "description", PLUGIN_LIMITS.descriptionChars, false),
        commandsDir: folder(json, "commands", realDir),
        skillsDir: folder(json, "skills", realDir),
        hooks,
        fingerprint: hooks.length ? await fingerprintOf(hooks) : "",
      },
    };
  } catch (e) {
    return { ok: false, error: `${MANIFEST_FILE}: ${(e as Error).message}` };
  }
}
