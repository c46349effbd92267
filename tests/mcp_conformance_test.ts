/**
 * The official MCP conformance suite against `/mcp` (scripts/mcp_conformance.ts): every
 * server scenario that applies to ReinAgent passes; the others are listed with why. It
 * installs Node 22 and the suite from npm on first use (~60 MB), so it runs only with
 * REINAGENT_CONFORMANCE=1 (CI sets it).
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { APPLICABLE, NOT_APPLICABLE, runConformance } from "../scripts/mcp_conformance.ts";

const wanted = Deno.env.get("REINAGENT_CONFORMANCE") === "1";
if (!wanted) console.error("mcp_conformance_test: SKIPPED (set REINAGENT_CONFORMANCE=1 to run)");

Deno.test("every scenario is either run or said not to apply", () => {
  const all = [...APPLICABLE, ...Object.keys(NOT_APPLICABLE)];
  assertEquals(new Set(all).size, all.length, "no scenario in both lists");
  assert(APPLICABLE.includes("dns-rebinding-protection"));
});

Deno.test({
  name: "MCP conformance: the applicable server scenarios pass",
  ignore: !wanted,
  async fn() {
    const results = await runConformance();
    const failed = results.filter((r) => !r.ok);
    assertEquals(failed.map((r) => r.scenario), [], failed.map((r) => r.output).join("\n"));
    assertEquals(results.length, APPLICABLE.length);
  },
});
