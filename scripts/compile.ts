/**
 * Builds the single-file binary with `deno compile`. Deno downloads a runtime base
 * binary ("denort") for each target from its download server; offline, point
 * DENORT_BIN at a real `denort` for the host target.
 *
 * Usage: deno task compile [--target TRIPLE …] [--all]
 */

const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
];

/** The same permissions the app runs with; `--no-prompt` so a denied op never asks. */
export const COMPILE_FLAGS = [
  "--no-prompt",
  "--allow-net",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  "--allow-ffi",
  "--unstable-worker-options",
  // Half the soak's peak RSS (issue #15, scripts/bench_soak.ts): V8 collects sooner.
  "--v8-flags=--optimize-for-size",
];

const args = [...Deno.args];
let targets: string[] = [];
if (args.includes("--all")) targets = TARGETS;
for (let i = 0; i < args.length; i++) if (args[i] === "--target") targets.push(args[++i]);
if (targets.length === 0) targets = [""]; // host target

const root = new URL("../", import.meta.url).pathname;
let failed = 0;
for (const target of targets) {
  const name = target
    ? `reinagent-${target}${target.includes("windows") ? ".exe" : ""}`
    : "reinagent";
  const out = `${root}dist/${name}`;
  const cmd = [
    "compile",
    ...COMPILE_FLAGS,
    ...(target ? ["--target", target] : []),
    // Worker entry points are loaded by URL at run time: include them explicitly.
    "--include",
    `${root}tools/sandbox/worker.ts`,
    "-o",
    out,
    `${root}main.ts`,
  ];
  console.log(`deno ${cmd.join(" ")}`);
  const r = await new Deno.Command(Deno.execPath(), {
    args: cmd,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!r.success) {
    failed++;
    console.error(
      `compile for ${target || "host"} failed. deno compile needs Deno's download server for the ` +
        `runtime base binary, or DENORT_BIN pointing at a local denort.`,
    );
  }
}
Deno.exit(failed ? 1 : 0);
