/** The MCP page's form ↔ config helpers (ui/state/mcp_model.js). */
import { assert, assertEquals } from "./helpers/assert.ts";
import { configOf, formOf, parsePairs, splitToolName, targetOf } from "../ui/state/mcp_model.js";

Deno.test("form → config: args per line, env and header pairs, kept tool policies", () => {
  const base = {
    id: "fs",
    enabled: true,
    transport: "stdio" as const,
    command: "npx",
    args: ["-y", "srv"],
    env: { A: "1" },
    toolPolicies: { write: "ask" as const },
  };
  const f = formOf(base);
  assertEquals(f.args, "-y\nsrv");
  assertEquals(f.env, "A=1");
  const r = configOf(
    { ...f, args: " -y \n\nsrv\n/a dir ", env: "A=1\nB = two=2", policy: "deny" },
    base,
  );
  assert("config" in r);
  assertEquals(r.config, {
    toolPolicies: { write: "ask" },
    id: "fs",
    enabled: true,
    transport: "stdio",
    command: "npx",
    args: ["-y", "srv", "/a dir"],
    env: { A: "1", B: "two=2" },
    policy: "deny",
  });
  const web = configOf({
    ...formOf(null),
    id: "web",
    transport: "http",
    url: "https://x/mcp",
    headers: "Authorization: Bearer a:b",
  }, null);
  assert("config" in web);
  assertEquals(web.config.headers, { Authorization: "Bearer a:b" });
  assertEquals(web.config.command, "");
});

Deno.test("form problems by field", () => {
  const r = configOf({
    ...formOf(null),
    id: "bad id",
    command: "",
    env: "NOPE",
    timeoutMs: "5",
  }, null);
  assert("errors" in r);
  assertEquals(Object.keys(r.errors).sort(), ["command", "env", "id", "timeoutMs"]);
  assertEquals(r.errors.env, "NOPE");
  const u = configOf({ ...formOf(null), id: "u", transport: "sse", url: "ftp://x" }, null);
  assert("errors" in u && u.errors.url);
  assertEquals(parsePairs("=x", "="), { bad: "=x" });
});

Deno.test("targets and tool names", () => {
  assertEquals(
    targetOf({ id: "a", enabled: true, transport: "stdio", command: "node", args: ["a b", "c"] }),
    'node "a b" c',
  );
  assertEquals(splitToolName("mcp__srv__get-sum"), { server: "srv", tool: "get-sum" });
  assertEquals(splitToolName("read_file"), null);
});
