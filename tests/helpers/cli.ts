/** Runs the program as a user would (`reinagent ARGS`): the source `main.ts` or another entry. */
import { ROOT, runFlagsFor } from "./server.ts";

export async function reinagent(
  args: string[],
  entry = `${ROOT}main.ts`,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...runFlagsFor(entry), entry, ...args],
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
    env: { NO_COLOR: "1" },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}
