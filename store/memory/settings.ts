/**
 * The memory settings, `<data dir>/memory/settings.json`. A file that does not parse is
 * reported and left alone: the defaults apply and saving is refused until it is fixed.
 */
import { join } from "../../lib/path.ts";
import { DEFAULT_MEMORY_SETTINGS, type MemorySettings } from "../../protocol/memory.ts";
import { MemoryError } from "./paths.ts";

export type SettingsRead = { settings: MemorySettings; error: string | null };

const fileOf = (root: string) => join(root, "settings.json");

export function readMemorySettings(root: string): SettingsRead {
  let text: string;
  try {
    text = Deno.readTextFileSync(fileOf(root));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      return { settings: { ...DEFAULT_MEMORY_SETTINGS }, error: null };
    }
    return { settings: { ...DEFAULT_MEMORY_SETTINGS }, error: (e as Error).message };
  }
  try {
    const v = JSON.parse(text);
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error("not an object");
    if (v.extraction !== undefined && typeof v.extraction !== "boolean") {
      throw new Error('"extraction" must be true or false');
    }
    return { settings: { ...DEFAULT_MEMORY_SETTINGS, ...v }, error: null };
  } catch (e) {
    return {
      settings: { ...DEFAULT_MEMORY_SETTINGS },
      error: `${fileOf(root)} is not valid (${(e as Error).message}); defaults apply`,
    };
  }
}

export function writeMemorySettings(root: string, next: MemorySettings): MemorySettings {
  const cur = readMemorySettings(root);
  if (cur.error) throw new MemoryError("corrupt", `${cur.error}; fix or delete it first`);
  const settings = { ...cur.settings, ...next };
  Deno.mkdirSync(root, { recursive: true, mode: 0o700 });
  const tmp = `${fileOf(root)}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  Deno.writeTextFileSync(tmp, JSON.stringify(settings, null, 2) + "\n", { mode: 0o600 });
  Deno.renameSync(tmp, fileOf(root));
  return settings;
}
