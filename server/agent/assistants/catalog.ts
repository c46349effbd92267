/**
 * The assistants a user has: the built-ins plus `<data dir>/assistants/*.md`. A file
 * that cannot be used (bad frontmatter, too large, a link, not UTF-8, a built-in's id)
 * is reported as a problem and left as it is. The global default is kept in the kv
 * table; one that no longer exists reads as `general`.
 */
import { join } from "../../../lib/path.ts";
import {
  type Assistant,
  ASSISTANT_LIMITS,
  type AssistantList,
  type AssistantProblem,
  GENERAL_ASSISTANT_ID,
} from "../../../protocol/assistants.ts";
import type { KvRepo } from "../../../store/kv.ts";
import { BUILTIN_ASSISTANTS, isBuiltinId } from "./builtins.ts";
import { parseAssistantFile } from "./format.ts";

export const DEFAULT_ASSISTANT_KEY = "assistants.default";

export const assistantsDir = (home: string): string => join(home, "assistants");

/** Custom assistants of the folder (sorted by id) and the problems of reading it. */
export function readCustomAssistants(
  home: string,
): { custom: Assistant[]; problems: AssistantProblem[] } {
  const dir = assistantsDir(home);
  const problems: AssistantProblem[] = [];
  const names: string[] = [];
  try {
    for (const e of Deno.readDirSync(dir)) {
      if (/\.md$/i.test(e.name)) names.push(e.name);
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) {
      problems.push({ path: dir, message: `cannot read the folder: ${(e as Error).message}` });
    }
    return { custom: [], problems };
  }
  names.sort();
  if (names.length > ASSISTANT_LIMITS.files) {
    problems.push({
      path: dir,
      message: `${names.length} files; only the first ${ASSISTANT_LIMITS.files} are read`,
    });
  }
  const custom: Assistant[] = [];
  for (const name of names.slice(0, ASSISTANT_LIMITS.files)) {
    const path = join(dir, name);
    const id = name.replace(/\.md$/i, "");
    const bad = (message: string) => problems.push({ path, message });
    try {
      // A link could point anywhere (a secret file's text would become a persona).
      const st = Deno.lstatSync(path);
      if (st.isSymlink) {
        bad("it is a symbolic link, which is not read");
        continue;
      }
      if (!st.isFile) continue;
      if (st.size > ASSISTANT_LIMITS.fileBytes) {
        bad(
          `${Math.ceil(st.size / 1024)} KB is larger than ${ASSISTANT_LIMITS.fileBytes / 1024} KB`,
        );
        continue;
      }
      if (isBuiltinId(id)) {
        bad(`"${id}" is a built-in assistant's id; rename the file to use it`);
        continue;
      }
      const text = new TextDecoder("utf-8", { fatal: true }).decode(Deno.readFileSync(path));
      const a = parseAssistantFile(id, path, text);
      if ("problem" in a) bad(a.problem);
      else custom.push(a);
    } catch (e) {
      bad(
        e instanceof TypeError ? "it is not UTF-8 text" : `cannot read it: ${(e as Error).message}`,
      );
    }
  }
  return { custom, problems };
}

/** The stored global default (may name an assistant that is gone). */
export function storedDefault(kv: KvRepo): string {
  const v = kv.get(DEFAULT_ASSISTANT_KEY);
  return typeof v === "string" ? v : GENERAL_ASSISTANT_ID;
}

/** Everything the Assistants page and the chip show. */
export async function listAssistants(home: string, kv: KvRepo): Promise<AssistantList> {
  const { custom, problems } = await readCustomAssistants(home);
  const assistants = [...BUILTIN_ASSISTANTS, ...custom];
  const stored = storedDefault(kv);
  const defaultId = assistants.some((a) => a.id === stored) ? stored : GENERAL_ASSISTANT_ID;
  return { assistants, problems, defaultId, dir: assistantsDir(home) };
}

/** One assistant by id (built-in or a usable file), or null. */
export async function findAssistant(home: string, id: string): Promise<Assistant | null> {
  const b = BUILTIN_ASSISTANTS.find((a) => a.id === id);
  if (b) return b;
  const { custom } = await readCustomAssistants(home);
  return custom.find((a) => a.id === id) ?? null;
}
