/**
 * The last word on a build: the compiled program, run with `--version`, must say it is
 * ReinAgent. Whatever slipped past the base-binary checks (a wrapper script around
 * deno, a denort of another version that crashes) shows up here.
 */
import { probe } from "./base_binary.ts";

/** Why the binary at `path` is not the app it should be, or null when it answers right. */
export async function compiledBinaryProblem(
  path: string,
  version: string,
): Promise<string | null> {
  const expected = `reinagent ${version}`;
  const r = await probe(path, ["--version"]);
  if (!r) return `${path} could not be started`;
  if (r.timedOut) return `${path} --version did not answer within 10 s`;
  const first = r.stdout.split("\n")[0].trim();
  if (r.code === 0 && first === expected) return null;
  const said = first || r.stderr.split("\n")[0].trim() || "nothing";
  return `${path} --version printed "${said}" (exit ${r.code}), not "${expected}": ` +
    `the base binary is not a denort matching this deno.`;
}
