/**
 * `.reinagent/.temp/`: the workspace folder for throw-away scripts. The
 * first file written into it also writes its `.gitignore` (`*`), which ignores the
 * folder and itself, so nothing in it is ever committed.
 */
import { join } from "../lib/path.ts";
import { TEMP_DIR } from "../protocol/files.ts";
import { isInside } from "./paths.ts";

export const TEMP_GITIGNORE = "# Throw-away files of ReinAgent runs: never committed.\n*\n";

/**
 * Writes `<workspace>/.reinagent/.temp/.gitignore` when `path` lies in that folder and
 * the file is missing. Returns whether it wrote one.
 */
export async function ensureTempIgnore(path: string, workspace: string): Promise<boolean> {
  const dir = join(workspace, TEMP_DIR);
  if (!isInside(path, dir)) return false;
  await Deno.mkdir(dir, { recursive: true });
  try {
    await Deno.writeTextFile(join(dir, ".gitignore"), TEMP_GITIGNORE, { createNew: true });
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) return false;
    throw e;
  }
}
