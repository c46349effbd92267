/**
 * A local OAuth authorization server and an MCP server it protects, both on loopback,
 * strict the way a careful real pair is: metadata at the well-known paths, dynamic
 * registration, PKCE (S256) checked, the `resource` parameter required and checked,
 * refresh tokens, revocation, and a 403 `insufficient_scope` for a tool that needs
 * more. Every request is logged so a test can see what the client did.
 */
import { Server, WebStandardStreamableHTTPServerTransport } from "../../server/mcp/server/sdk.ts";
import { CallToolRequestSchema, ListToolsRequestSchema } from "../../server/mcp/server/sdk.ts";

interface Issued {
  clientId: string;
  scope: string;
  resource: string;
  revoked: boolean;
}

const b64url = (b: Uint8Array) =>
  btoa(String.fromCharCode(...b)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
const rand = () => b64url(crypto.getRandomValues(new Uint8Array(18)));
const sha256 = async (s: string) =>
  b64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s))));
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

export interface OAuthPair {
  /** The MCP endpoint (`…/mcp`). */
  mcpUrl: string;
  issuer: string;
  log: { path: string; params: Record<string, string> }[];
  access: Map<string, Issued>;
  refresh: Map<string, Issued>;
  /** Makes every access token so far invalid (as if expired). */
  expireAccessTokens(): void;
  /** Revokes every token so far (as an admin would). */
  revokeAll(): void;
  close(): Promise<void>;
}

export function startOAuthPair(): OAuthPair {
  const log: OAuthPair["log"] = [];
  const clients = new Map<string, string[]>(); // client_id → redirect_uris
  const codes = new Map<
    string,
    { clientId: string; redirect: string; challenge: string; resource: string; scope: string }
  >();
  const access = new Map<string, Issued>();
  const refresh = new Map<string, Issued>();
  let mcpUrl = "";

  const as = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const params: Record<string, string> = Object.fromEntries(url.searchParams);
    if (req.method === "POST") {
      const type = req.headers.get("content-type") ?? "";
      if (type.includes("json")) Object.assign(params, { json: await req.text() });
      else Object.assign(params, Object.fromEntries(new URLSearchParams(await req.text())));
    }
    log.push({ path: url.pathname, params });
    const issuer = url.origin;
    switch (url.pathname) {
      case "/.well-known/oauth-authorization-server":
        return json(200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          registration_endpoint: `${issuer}/register`,
          revocation_endpoint: `${issuer}/revoke`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
          scopes_supported: ["tools", "admin"],
        });
      case "/register": {
        const meta = JSON.parse(params.json);
        const id = `client-${clients.size + 1}`;
        clients.set(id, meta.redirect_uris);
        return json(201, { ...meta, client_id: id, client_id_issued_at: 1 });
      }
      case "/authorize": {
        // The user "approves" at once; what matters is what the client asked for.
        const uris = clients.get(params.client_id);
        if (!uris?.includes(params.redirect_uri)) return json(400, { error: "invalid_request" });
        if (params.code_challenge_method !== "S256" || !params.code_challenge) {
          return json(400, { error: "invalid_request", error_description: "PKCE required" });
        }
        if (params.resource !== mcpUrl) return json(400, { error: "invalid_target" });
        const code = rand();
        codes.set(code, {
          clientId: params.client_id,
          redirect: params.redirect_uri,
          challenge: params.code_challenge,
          resource: params.resource,
          scope: params.scope ?? "",
        });
        const back = new URL(params.redirect_uri);
        back.searchParams.set("code", code);
        back.searchParams.set("state", params.state ?? "");
        return new Response(null, { status: 302, headers: { location: back.href } });
      }
      case "/token": {
        const issue = (g: Issued) => {
          const a = rand(), r = rand();
          access.set(a, { ...g, revoked: false });
          refresh.set(r, { ...g, revoked: false });
          return json(200, {
            access_token: a,
            token_type: "Bearer",
            expires_in: 3600,
            refresh_token: r,
            scope: g.scope,
          });
        };
        if (params.grant_type === "authorization_code") {
          const c = codes.get(params.code);
          codes.delete(params.code);
          if (
            !c || c.clientId !== params.client_id || c.redirect !== params.redirect_uri ||
            c.resource !== params.resource ||
            c.challenge !== await sha256(params.code_verifier ?? "")
          ) return json(400, { error: "invalid_grant" });
          return issue({
            clientId: c.clientId,
            scope: c.scope,
            resource: c.resource,
            revoked: false,
          });
        }
        if (params.grant_type === "refresh_token") {
          const g = refresh.get(params.refresh_token);
          if (!g || g.revoked || params.resource !== mcpUrl) {
            return json(400, { error: "invalid_grant" });
          }
          g.revoked = true; // rotated
          return issue(g);
        }
        return json(400, { error: "unsupported_grant_type" });
      }
      case "/revoke": {
        const g = access.get(params.token) ?? refresh.get(params.token);
        if (g) g.revoked = true;
        return new Response(null, { status: 200 });
      }
    }
    return json(404, { error: "not_found" });
  });
  const issuer = `http://127.0.0.1:${as.addr.port}`;

  const mcp = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const prm = `${url.origin}/.well-known/oauth-protected-resource/mcp`;
    if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) {
      log.push({ path: url.pathname, params: {} });
      return json(200, {
        resource: mcpUrl,
        authorization_servers: [issuer],
        // What a plain sign-in asks for; `admin` comes only through a step-up.
        scopes_supported: ["tools"],
      });
    }
    if (url.pathname !== "/mcp") return json(404, { error: "not_found" });
    const token = (req.headers.get("authorization") ?? "").replace(/^Bearer /, "");
    const grant = access.get(token);
    if (!grant || grant.revoked || grant.resource !== mcpUrl) {
      return json(401, { error: "invalid_token" }, {
        "www-authenticate": `Bearer error="invalid_token", resource_metadata="${prm}"`,
      });
    }
    const body = req.method === "POST" ? await req.clone().json().catch(() => null) : null;
    if (body?.params?.name === "admin_tool" && !grant.scope.split(" ").includes("admin")) {
      return json(403, { error: "insufficient_scope" }, {
        "www-authenticate":
          `Bearer error="insufficient_scope", scope="tools admin", resource_metadata="${prm}"`,
      });
    }
    const server = new Server({ name: "protected", version: "1" }, {
      capabilities: { tools: {} },
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        { name: "whoami", inputSchema: { type: "object" } },
        { name: "admin_tool", inputSchema: { type: "object" } },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, (r) => ({
      content: [{
        type: "text",
        text: `${r.params.name} ok for ${grant.clientId} [${grant.scope}]`,
      }],
    }));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    return await transport.handleRequest(req);
  });
  mcpUrl = `http://127.0.0.1:${mcp.addr.port}/mcp`;

  return {
    mcpUrl,
    issuer,
    log,
    access,
    refresh,
    expireAccessTokens: () => access.forEach((g) => g.revoked = true),
    revokeAll: () => {
      access.forEach((g) => g.revoked = true);
      refresh.forEach((g) => g.revoked = true);
    },
    close: async () => {
      await as.shutdown();
      await mcp.shutdown();
    },
  };
}
