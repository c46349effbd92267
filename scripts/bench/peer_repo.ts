/**
 * The repository every agent of the peer benchmark works in: a small TypeScript project
 * (README, package.json, 20 modules of ~120 lines) committed to git, generated the same
 * way each time. Each module holds a marker the bench looks for in the last request, to
 * prove the agent really read it.
 */
import { join } from "node:path";

export const MODULES = 20;

export const moduleFile = (n: number) => `src/module_${String(n).padStart(2, "0")}.ts`;
export const marker = (n: number) => `MARKER_${String(n).padStart(2, "0")}`;

function moduleText(n: number): string {
  const lines = [
    `/** Module ${n} of the benchmark repository. */`,
    `export const ${marker(n)} = "bench-${n}";`,
    "",
    `export function compute${n}(values: number[]): number {`,
    "  let total = 0;",
  ];
  for (let i = 0; i < 110; i++) {
    lines.push(`  total += (values[${i % 7}] ?? ${i}) * ${(i * 31 + n) % 97}; // step ${i}`);
  }
  lines.push("  return total;", "}", "");
  return lines.join("\n");
}

export async function generateRepo(dir: string): Promise<void> {
  await Deno.mkdir(join(dir, "src"), { recursive: true });
  await Deno.writeTextFile(
    join(dir, "README.md"),
    "# bench-repo\n\nA generated project for the ReinAgent peer benchmark.\n",
  );
  await Deno.writeTextFile(
    join(dir, "package.json"),
    JSON.stringify({ name: "bench-repo", version: "1.0.0", type: "module" }, null, 2) + "\n",
  );
  for (let n = 1; n <= MODULES; n++) {
    await Deno.writeTextFile(join(dir, moduleFile(n)), moduleText(n));
  }
  const git = async (...args: string[]) => {
    const r = await new Deno.Command("git", {
      args,
      cwd: dir,
      stdout: "null",
      stderr: "piped",
      env: {
        GIT_AUTHOR_NAME: "bench",
        GIT_AUTHOR_EMAIL: "bench@localhost",
        GIT_COMMITTER_NAME: "bench",
        GIT_COMMITTER_EMAIL: "bench@localhost",
      },
    }).output();
    if (r.code !== 0) throw new Error(`git ${args[0]}: ${new TextDecoder().decode(r.stderr)}`);
  };
  await git("init", "-q", "-b", "main");
  await git("add", ".");
  await git("commit", "-q", "-m", "bench repository");
}
