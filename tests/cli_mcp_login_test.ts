/**
 * `reinagent mcp login ID` / `logout ID` against a local authorization server and the
 * MCP server it protects: with no instance running the command starts one to receive
 * the answer, prints the address to open, and ends once signed in — printing the token
 * masked only; logout revokes at the authorization server. Unknown and stdio servers
 * are clear errors.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { ROOT, RUN_FLAGS } from "./helpers/server.ts";
import { reinagent } from "./helpers/cli.ts";
import { saveServers } from "../server/mcp/config.ts";
import { startOAuthPair } from "./helpers/mcp_oauth_server.ts";

Deno.test("mcp login / logout from the terminal", async () => {
  const pair = startOAuthPair();
  const home = await Deno.makeTempDir({ prefix: "ra-home-" });
  await saveServers(home, [
    { id: "guarded", enabled: true, transport: "http", command: "", args: [], url: pair.mcpUrl },
    { id: "local", enabled: true, transport: "stdio", command: "true", args: [] },
  ]);
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: [...RUN_FLAGS, `${ROOT}main.ts`, "mcp", "login", "guarded", "--home", home],
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
      env: { NO_COLOR: "1" },
    }).spawn();
    const dec = new TextDecoder();
    let out = "";
    const reader = child.stdout.getReader();
    let url: string | null = null;
    while (!url) {
      const { value, done } = await reader.read();
      if (done) break;
      out += dec.decode(value, { stream: true });
      url = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(out)?.[1] ?? null;
    }
    assert(url, `no sign-in address printed:\n${out}`);
    // The browser: the authorization server answers with a redirect to our callback.
    const auth = await fetch(url, { redirect: "manual" });
    await auth.body?.cancel();
    const back = auth.headers.get("location")!;
    assertMatch(back, /\/api\/mcp\/oauth\/callback\?code=/);
    const landed = await fetch(back);
    assertEquals(landed.status, 200, await landed.text());
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      out += dec.decode(value, { stream: true });
    }
    const status = await child.status;
    const stderr = dec.decode(await new Response(child.stderr).arrayBuffer());
    assertEquals(status.code, 0, stderr);
    assertMatch(out, /Signed in to guarded \(token ••••\S+, scope tools\)/);
    const [token] = [...pair.access.keys()];
    assert(!out.includes(token) && !stderr.includes(token), "the token is never printed whole");

    const logout = await reinagent(["mcp", "logout", "guarded", "--home", home]);
    assertEquals(logout.code, 0, logout.stderr);
    assertMatch(logout.stdout, /revoked the tokens/);
    assert(pair.access.get(token)!.revoked);

    const stdio = await reinagent(["mcp", "login", "local", "--home", home]);
    assertEquals(stdio.code, 1);
    assertMatch(stdio.stderr, /no http server/);
    const unknown = await reinagent(["mcp", "login", "nope", "--home", home]);
    assertEquals(unknown.code, 1);
    assertMatch(unknown.stderr, /no MCP server "nope"/);
  } finally {
    await pair.close();
  }
});
