/**
 * OAuth to an HTTP MCP server, against a local authorization server and the MCP server
 * it protects (tests/helpers/mcp_oauth_server.ts): discovery, dynamic registration, PKCE
 * and the `resource` parameter on a sign-in the test completes as the browser would;
 * tokens kept 0600 and only ever shown masked; an expired access token refreshed on its
 * own; a revoked one ending in "needs sign-in"; step-up on 403 insufficient_scope;
 * sign-out revoking at the server. Attacks: a forged or replayed `state`, a code for
 * another sign-in.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "./helpers/assert.ts";
import { McpManager } from "../server/mcp/manager.ts";
import { oauthPath } from "../server/mcp/oauth/store.ts";
import { handleOAuthCallback } from "../server/http/mcp_oauth_callback.ts";
import type { McpServerConfig } from "../protocol/mcp_servers.ts";
import { type OAuthPair, startOAuthPair } from "./helpers/mcp_oauth_server.ts";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types";

async function setup(): Promise<
  { home: string; m: McpManager; pair: OAuthPair; config: McpServerConfig }
> {
  const pair = startOAuthPair();
  const home = await Deno.makeTempDir();
  const config: McpServerConfig = {
    id: "guarded",
    enabled: true,
    transport: "http",
    command: "",
    args: [],
    url: pair.mcpUrl,
  };
  await Deno.writeTextFile(`${home}/mcp_servers.json`, JSON.stringify([config]));
  const m = new McpManager({ home, envPolicy: () => ({}), publish: () => {} });
  m.setCallbackBase("http://127.0.0.1:9");
  return { home, m, pair, config };
}

/** Follows the authorization URL as the browser would and returns what comes back. */
async function authorize(url: string): Promise<{ code: string; state: string }> {
  const r = await fetch(url, { redirect: "manual" });
  await r.body?.cancel();
  assertEquals(r.status, 302, `authorize answered ${r.status}`);
  const back = new URL(r.headers.get("location")!);
  assertEquals(back.pathname, "/api/mcp/oauth/callback");
  return { code: back.searchParams.get("code")!, state: back.searchParams.get("state")! };
}

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

Deno.test("mcp oauth: sign in, call, refresh, revoke, step-up, sign out", async () => {
  const { home, m, pair, config } = await setup();
  try {
    // Without a sign-in the connection fails, saying what to do.
    const before = await m.restart("guarded");
    assertEquals([before.ok, before.phase], [false, "initialize"]);
    assertMatch(before.error ?? "", /needs sign-in.*reinagent mcp login guarded/);

    const { url } = await m.oauthStart("guarded");
    assert(url);
    const asked = new URL(url);
    assertEquals(asked.origin, pair.issuer);
    assertEquals(asked.searchParams.get("resource"), pair.mcpUrl);
    assertEquals(asked.searchParams.get("code_challenge_method"), "S256");
    assertEquals(
      asked.searchParams.get("redirect_uri"),
      "http://127.0.0.1:9/api/mcp/oauth/callback",
    );
    assert(pair.log.some((l) => l.path === "/register"), "dynamic client registration");
    assert(pair.log.some((l) => l.path.startsWith("/.well-known/oauth-protected-resource")));

    const back = await authorize(url);
    // Attack: a forged state is refused and does not use up the real one.
    await assertRejects(() => m.oauthFinish("forged-state", back.code), "forged state");
    assertEquals(await m.oauthFinish(back.state, back.code), "guarded");
    // Attack: the same redirect replayed (state single use).
    await assertRejects(() => m.oauthFinish(back.state, back.code), "replayed state");

    const tokenReq = pair.log.find((l) => l.path === "/token")!;
    assertEquals(tokenReq.params.grant_type, "authorization_code");
    assertEquals(tokenReq.params.resource, pair.mcpUrl);
    assert(tokenReq.params.code_verifier, "PKCE verifier sent");

    // The file: 0600, the token inside; what clients see: masked.
    const file = await Deno.readTextFile(oauthPath(home));
    assertEquals((await Deno.stat(oauthPath(home))).mode! & 0o777, 0o600);
    const [access] = [...pair.access.keys()];
    assert(file.includes(access));
    const summary = await m.oauthStatus("guarded");
    assertEquals(summary.signedIn, true);
    assert(summary.refreshable);
    assert(summary.token!.startsWith("••••") && !summary.token!.includes(access.slice(0, 8)));
    assertEquals(JSON.stringify(await m.overview()).includes(access), false);

    const call = (tool: string) =>
      m.pool.use(config, (c) => c.call(tool, {}, new AbortController().signal));
    assertMatch(text(await call("whoami")), /whoami ok for client-1/);

    // The access token runs out: the next request refreshes it without the user.
    pair.expireAccessTokens();
    assertMatch(text(await call("whoami")), /whoami ok/);
    const refreshed = pair.log.filter((l) => l.params.grant_type === "refresh_token");
    assertEquals(refreshed.length, 1);
    assertEquals(refreshed[0].params.resource, pair.mcpUrl);

    // Step-up: a tool needing more scope makes the server answer 403 insufficient_scope.
    // A connection never starts a sign-in by itself; the next sign-in asks for the scope.
    const stepUp = await call("admin_tool").then(() => null, (e: Error) => e);
    assert(stepUp, "admin_tool must fail before the step-up");
    const again = await m.oauthStart("guarded");
    assert(again.url);
    assertMatch(new URL(again.url).searchParams.get("scope") ?? "", /admin/);
    const back2 = await authorize(again.url);
    await m.oauthFinish(back2.state, back2.code);
    await m.pool.close("guarded");
    assertMatch(text(await call("admin_tool")), /admin_tool ok .*admin/);

    // Revoked by the server (access and refresh): the connection says sign in again.
    pair.revokeAll();
    await m.pool.close("guarded");
    const revoked = await m.restart("guarded");
    assertEquals(revoked.ok, false);
    assertMatch(revoked.error ?? "", /needs sign-in/);

    // Sign out: revoked at the authorization server, forgotten here.
    const back3 = await authorize((await m.oauthStart("guarded")).url!);
    await m.oauthFinish(back3.state, back3.code);
    const live = [...pair.refresh.entries()].filter(([, g]) => !g.revoked).map(([t]) => t);
    assertEquals(live.length, 1);
    assertEquals(await m.oauthSignOut("guarded"), { revokedAtServer: true });
    assert(pair.refresh.get(live[0])!.revoked, "refresh token revoked at the server");
    assertEquals((await m.oauthStatus("guarded")).signedIn, false);
    assertEquals((await Deno.readTextFile(oauthPath(home))).includes(live[0]), false);
  } finally {
    await m.close();
    await pair.close();
  }
});

Deno.test(
  "mcp oauth callback route: the state is the credential; pages in the browser's language",
  async () => {
    const { m, pair } = await setup();
    try {
      let failures = 0;
      const hit = (qs: string, lang = "en-US") => {
        const url = new URL(`http://127.0.0.1:9/api/mcp/oauth/callback?${qs}`);
        const req = new Request(url, { headers: { "accept-language": lang } });
        return handleOAuthCallback(req, url, m, () => failures++);
      };
      const back = await authorize((await m.oauthStart("guarded")).url!);
      // Attack: a guessed state is refused, counted for the lockout, and spends nothing.
      const guess = await hit(`code=${back.code}&state=guessed`);
      assertEquals(guess.status, 400);
      assertEquals(failures, 1);
      await guess.body?.cancel();
      // Attack: markup in the authorization server's error text is shown as text.
      const denied = await hit(
        `error=access_denied&error_description=${encodeURIComponent("<script>x</script>")}`,
      );
      const deniedText = await denied.text();
      assert(!deniedText.includes("<script>x"), deniedText);
      assertMatch(denied.headers.get("content-security-policy") ?? "", /default-src 'none'/);

      const ok = await hit(
        `code=${encodeURIComponent(back.code)}&state=${encodeURIComponent(back.state)}`,
        "zh-CN",
      );
      assertEquals(ok.status, 200);
      assertMatch(await ok.text(), /已登录 MCP 服务器“guarded”/);
      assertEquals((await m.oauthStatus("guarded")).signedIn, true);
      // Replayed: refused.
      const replay = await hit(
        `code=${encodeURIComponent(back.code)}&state=${encodeURIComponent(back.state)}`,
      );
      assertEquals(replay.status, 400);
      await replay.body?.cancel();
      assertEquals(failures, 2);
    } finally {
      await m.close();
      await pair.close();
    }
  },
);

Deno.test(
  "mcp oauth: a sign-in from a phone comes back to the address the phone used",
  async () => {
    const { m, pair } = await setup();
    try {
      m.setCallbackBase("http://127.0.0.1:9", (host) => host === "192.168.1.20:9");
      const { url } = await m.oauthStart("guarded", "http://192.168.1.20:9");
      assertEquals(
        new URL(url!).searchParams.get("redirect_uri"),
        "http://192.168.1.20:9/api/mcp/oauth/callback",
      );
      // The authorization server sends the phone back to that address; the code exchange
      // names the same redirect (the server checks it), and a refresh later still works.
      const back = await authorize(url!);
      assertEquals(await m.oauthFinish(back.state, back.code), "guarded");
      const exchange = pair.log.filter((l) => l.params.grant_type === "authorization_code")
        .at(-1)!;
      assertEquals(exchange.params.redirect_uri, "http://192.168.1.20:9/api/mcp/oauth/callback");
      pair.expireAccessTokens();
      const config = (await m.overview()).servers[0].config;
      await m.pool.close("guarded");
      const r = await m.pool.use(
        { ...config, url: pair.mcpUrl },
        (c) => c.call("whoami", {}, new AbortController().signal),
      );
      assertMatch(JSON.stringify(r), /whoami ok/);
      // Attack: an origin this server does not answer to, or not an origin at all.
      await assertRejects(() => m.oauthStart("guarded", "http://evil.example:9"), "foreign origin");
      await assertRejects(() => m.oauthStart("guarded", "http://192.168.1.20:9/x"), "a path");
      await assertRejects(() => m.oauthStart("guarded", "javascript:alert(1)"), "a script");
    } finally {
      await m.close();
      await pair.close();
    }
  },
);

Deno.test("mcp oauth: a stdio server or an unknown one has no sign-in", async () => {
  const { m, pair } = await setup();
  try {
    await assertRejects(() => m.oauthStart("nope"), "unknown server");
  } finally {
    await m.close();
    await pair.close();
  }
});
