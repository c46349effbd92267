/**
 * Changes to the user's assistants: create, replace and delete custom files (atomic
 * writes; built-ins are read-only; a file that is not a usable assistant is never
 * overwritten or deleted from here), and the global default.
 */
import { join } from "../../../lib/path.ts";
import {
  ASSISTANT_ID_RE,
  ASSISTANT_LIMITS,
  type AssistantInput,
  GENERAL_ASSISTANT_ID,
} from "../../../protocol/assistants.ts";
import type { KvRepo } from "../../../store/kv.ts";
import { OpError } from "../../errors.ts";
import { isBuiltinId } from "./builtins.ts";
import {
  assistantsDir,
  DEFAULT_ASSISTANT_KEY,
  findAssistant,
  readCustomAssistants,
  storedDefault,
} from "./catalog.ts";
import { renderAssistantFile } from "./format.ts";

/** The file of a custom id (the id was checked: no separators, no dots). */
function fileOf(home: string, id: string): string {
  if (!ASSISTANT_ID_RE.test(id)) throw new OpError("invalid_args", `"${id}" is not a valid id`);
  return join(assistantsDir(home), `${id}.md`);
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/** Why a custom id cannot be changed (null: it is a usable custom assistant). */
async function customProblem(home: string, id: string): Promise<string | null> {
  if (isBuiltinId(id)) return `"${id}" is a built-in assistant, which is read-only; duplicate it`;
  const { custom, problems } = await readCustomAssistants(home);
  if (custom.some((a) => a.id === id)) return null;
  const path = fileOf(home, id);
  const p = problems.find((x) => x.path === path);
  return p
    ? `${path} cannot be used (${p.message}); fix or remove it by hand, it is not overwritten`
    : `assistant ${id} does not exist`;
}

export async function saveAssistant(
  home: string,
  a: AssistantInput,
  mode: "new" | "replace",
): Promise<void> {
  const path = fileOf(home, a.id);
  if (mode === "new") {
    if (isBuiltinId(a.id) || await exists(path)) {
      throw new OpError("conflict", `an assistant with the id "${a.id}" already exists`);
    }
  } else {
    const why = await customProblem(home, a.id);
    if (why) throw new OpError(why.endsWith("not exist") ? "not_found" : "conflict", why);
  }
  const text = renderAssistantFile(a);
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > ASSISTANT_LIMITS.fileBytes) {
    // A file the catalog would refuse to read is not written.
    throw new OpError(
      "too_large",
      `the assistant is ${Math.ceil(bytes / 1024)} KB; at most ${
        ASSISTANT_LIMITS.fileBytes / 1024
      } KB`,
    );
  }
  await Deno.mkdir(assistantsDir(home), { recursive: true });
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(tmp, text, { createNew: true });
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}

/** Deletes a custom assistant; the default falls back to `general` when it was the default. */
export async function deleteAssistant(home: string, kv: KvRepo, id: string): Promise<void> {
  const why = await customProblem(home, id);
  if (why) throw new OpError(why.endsWith("not exist") ? "not_found" : "conflict", why);
  await Deno.remove(fileOf(home, id));
  if (storedDefault(kv) === id) kv.set(DEFAULT_ASSISTANT_KEY, GENERAL_ASSISTANT_ID);
}

export async function setDefaultAssistant(home: string, kv: KvRepo, id: string): Promise<void> {
  if (!await findAssistant(home, id)) {
    throw new OpError("not_found", `assistant ${id} does not exist`);
  }
  kv.set(DEFAULT_ASSISTANT_KEY, id);
}
