/**
 * Builds the single-file binary with `deno compile`. Deno downloads a runtime base
 * binary ("denort") for each target from its download server; offline, point
 * DENORT_BIN at a real `denort` for the target. A DENORT_BIN that is the `deno` CLI
 * (or fits another OS/CPU) is refused before the build, and a host build is run once
 * with `--version` afterwards: a binary that does not answer `reinagent <version>` is
 * deleted and the build fails.
 *
 * Usage: deno task compile [--target TRIPLE …] [--all] [--out-dir DIR]
 */
import { COMPILE_FLAGS, ENTRY, INCLUDES } from "./compile/graph.ts";
import { baseBinaryProblem } from "./compile/base_binary.ts";
import { compiledBinaryProblem } from "./compile/verify_output.ts";
import { describeKind, kindFits, targetKind } from "./compile/executable_kind.ts";
import { VERSION } from "../server/version.ts";

export { COMPILE_FLAGS };

export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
];

const root = new URL("../", import.meta.url).pathname;

/** Builds one target ("" = this machine) into `outDir`; the problem, or null when it worked. */
async function buildTarget(target: string, outDir: string): Promise<string | null> {
  const denort = Deno.env.get("DENORT_BIN");
  if (denort) {
    const problem = await baseBinaryProblem(denort, target);
    if (problem) return problem;
  }
  const name = target
    ? `reinagent-${target}${target.includes("windows") ? ".exe" : ""}`
    : "reinagent";
  const out = `${outDir}/${name}`;
  const cmd = [
    "compile",
    ...COMPILE_FLAGS,
    ...(target ? ["--target", target] : []),
    ...INCLUDES.flatMap((f) => ["--include", `${root}${f}`]),
    "-o",
    out,
    `${root}${ENTRY}`,
  ];
  console.log(`deno ${cmd.join(" ")}`);
  const r = await new Deno.Command(Deno.execPath(), {
    args: cmd,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!r.success) {
    return `compile for ${target || "host"} failed. deno compile needs Deno's download ` +
      `server for the runtime base binary, or DENORT_BIN pointing at a local denort.`;
  }
  // Only a binary for this machine can be run; the others were checked by header.
  const host = targetKind(Deno.build.target);
  const want = target ? targetKind(target) : host;
  if (host && want && kindFits(want, host)) {
    const wrong = await compiledBinaryProblem(out, VERSION);
    if (wrong) {
      await Deno.remove(out).catch(() => {});
      return `${wrong} Removed it.`;
    }
    console.log(`${out}: answers "reinagent ${VERSION}"`);
  } else if (want) {
    console.log(`${out}: a ${describeKind(want)}, not run here`);
  }
  return null;
}

if (import.meta.main) {
  const args = [...Deno.args];
  let targets: string[] = [];
  let outDir = `${root}dist`;
  if (args.includes("--all")) targets = [...TARGETS];
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (flag !== "--target" && flag !== "--out-dir") continue;
    const value = args[++i];
    if (!value || value.startsWith("--")) {
      console.error(`compile: ${flag} needs a value`);
      Deno.exit(2);
    }
    if (flag === "--target") targets.push(value);
    else outDir = value;
  }
  if (targets.length === 0) targets = [""]; // host target
  const unknown = targets.filter((t) => t && !targetKind(t));
  if (unknown.length) {
    console.error(`compile: unknown target ${unknown.join(", ")} (one of ${TARGETS.join(", ")})`);
    Deno.exit(2);
  }
  let failed = 0;
  for (const target of targets) {
    const problem = await buildTarget(target, outDir);
    if (problem) {
      failed++;
      console.error(`compile: ${problem}`);
    }
  }
  Deno.exit(failed ? 1 : 0);
}
