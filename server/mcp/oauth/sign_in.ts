/**
 * OAuth for HTTP MCP servers, on the SDK's `auth()` flow: protected-resource and
 * authorization-server metadata discovery, dynamic client registration (or the client id
 * of the server's config), PKCE, the `resource` parameter, refresh, and the step-up the
 * transport does on 403 `insufficient_scope`. We keep the state ({@link OAuthStore}) and
 * the two ends of a sign-in: {@link McpOAuth.start} makes the authorization URL (opened in
 * the desktop window or as a link on the phone), {@link McpOAuth.finish} takes the code
 * the authorization server sends to our callback route. Connections use a provider that
 * never starts a sign-in by itself: a server that needs one fails with a clear message
 * instead of overwriting the verifier of a sign-in the user has open.
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport";
import type { McpOAuthSummary, McpServerConfig } from "../../../protocol/mcp_servers.ts";
import { mask } from "../secrets.ts";
import { type OAuthRecord, OAuthStore } from "./store.ts";

type AuthModule = typeof import("@modelcontextprotocol/sdk/client/auth");
/** Loaded on first use, like the rest of the client SDK. */
const loadAuth = () => import("@modelcontextprotocol/sdk/client/auth.js") as Promise<AuthModule>;

/** The route the authorization server sends the browser back to. */
export const OAUTH_CALLBACK_PATH = "/api/mcp/oauth/callback";

export const SIGN_IN_NEEDED = "needs sign-in";

export type OAuthSummary = McpOAuthSummary;

export interface McpOAuthOptions {
  home: string;
  /** Our callback URL, once the server listens (null: no sign-in possible). */
  callbackUrl(): string | null;
  fetch?: FetchLike;
  now?: () => number;
  /** A sign-in finished: its server's connection should start over. */
  signedIn?(id: string): void;
}

const stateToken = () => {
  const b = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...b)).replace(
    /[+/=]/g,
    (c) => c === "+" ? "-" : c === "/" ? "_" : "",
  );
};

export class McpOAuth {
  readonly store: OAuthStore;
  private now: () => number;

  constructor(private o: McpOAuthOptions) {
    this.store = new OAuthStore(o.home);
    this.now = o.now ?? Date.now;
  }

  /** What a connection uses: tokens and refresh, never a sign-in of its own. */
  forConnection(config: McpServerConfig): {
    provider: OAuthClientProvider;
    observe(res: Response): void;
  } {
    const serverUrl = config.url ?? "";
    return {
      provider: this.provider(config, null),
      // A step-up: the server wants more scope; the next sign-in asks for it.
      observe: (res) => {
        if (res.status !== 403) return;
        const h = res.headers.get("www-authenticate") ?? "";
        if (!/error="?insufficient_scope/.test(h)) return;
        const scope = /scope="([^"]{1,2048})"/.exec(h)?.[1];
        if (scope) {
          void this.store.update(config.id, serverUrl, (r) => ({ ...r, wantScope: scope }))
            .catch((e) => console.error(`MCP OAuth: saving the wanted scope failed: ${e}`));
        }
      },
    };
  }

  /**
   * Starts a sign-in: the URL to open, or null when stored tokens (refreshed if need be)
   * already work.
   */
  async start(config: McpServerConfig, callback?: string): Promise<{ url: string | null }> {
    const { auth } = await loadAuth();
    const opened: { url: string | null } = { url: null };
    const serverUrl = config.url!;
    const redirect = callback ?? this.o.callbackUrl() ?? undefined;
    const wanted = (await this.store.get(config.id, serverUrl)).wantScope;
    await this.store.update(config.id, serverUrl, (r) => ({
      ...r,
      state: stateToken(),
      ...(redirect ? { redirect } : {}),
    }));
    const p = this.provider(config, opened);
    // More scope wanted: the tokens held are not enough, whatever refresh could do.
    if (wanted) await p.invalidateCredentials?.("tokens");
    const result = await auth(p, { serverUrl, fetchFn: this.o.fetch, scope: wanted });
    if (result === "AUTHORIZED") {
      await this.store.update(config.id, serverUrl, ({ state: _s, verifier: _v, ...r }) => r);
      return { url: null };
    }
    if (!opened.url) throw new Error("the authorization server gave no sign-in address");
    return opened;
  }

  /**
   * Ends a sign-in with the code the authorization server sent to our callback. Returns
   * the server id; throws when the state matches no sign-in under way.
   */
  async finish(
    state: string,
    code: string,
    configOf: (id: string) => McpServerConfig | undefined,
  ): Promise<string> {
    const found = await this.store.byState(state);
    if (!found) throw new Error("this sign-in is unknown or was already used; start it again");
    const [id, rec] = found;
    const config = configOf(id);
    if (!config || config.url !== rec.serverUrl) {
      throw new Error(`the MCP server "${id}" changed since the sign-in started; start it again`);
    }
    const { auth } = await loadAuth();
    const p = this.provider(config, null);
    try {
      const r = await auth(p, {
        serverUrl: rec.serverUrl,
        authorizationCode: code,
        fetchFn: this.o.fetch,
      });
      if (r !== "AUTHORIZED") throw new Error("the authorization server did not accept the code");
    } finally {
      // The state is single use, whatever the outcome.
      await this.store.update(
        id,
        rec.serverUrl,
        ({ state: _s, verifier: _v, wantScope: _w, ...r }) => r,
      );
    }
    this.o.signedIn?.(id);
    return id;
  }

  async summary(config: McpServerConfig): Promise<OAuthSummary> {
    const r = await this.store.get(config.id, config.url ?? "");
    const t = r.tokens;
    return {
      signedIn: Boolean(t?.access_token),
      token: t?.access_token ? mask(t.access_token) : null,
      scope: t?.scope ?? null,
      expiresAt: t?.expires_in && r.savedAt ? r.savedAt + t.expires_in * 1000 : null,
      refreshable: Boolean(t?.refresh_token),
    };
  }

  /**
   * Forgets the tokens (and the registration); the authorization server is asked to
   * revoke them first when it offers a revocation endpoint. Returns whether it did.
   */
  async signOut(config: McpServerConfig): Promise<{ revokedAtServer: boolean }> {
    const rec = await this.store.get(config.id, config.url ?? "");
    let revokedAtServer = false;
    if (rec.tokens && config.url) {
      revokedAtServer = await this.revokeAtServer(config.url, rec).catch(() => false);
    }
    await this.store.remove(config.id);
    return { revokedAtServer };
  }

  private async revokeAtServer(serverUrl: string, rec: OAuthRecord): Promise<boolean> {
    const { discoverOAuthServerInfo } = await loadAuth();
    const info = await discoverOAuthServerInfo(serverUrl, { fetchFn: this.o.fetch });
    const endpoint = (info.authorizationServerMetadata as { revocation_endpoint?: string })
      ?.revocation_endpoint;
    const client = rec.client as { client_id?: string; client_secret?: string } | undefined;
    if (!endpoint || !client?.client_id) return false;
    let ok = true;
    for (
      const [token, hint] of [
        [rec.tokens?.refresh_token, "refresh_token"],
        [rec.tokens?.access_token, "access_token"],
      ] as const
    ) {
      if (!token) continue;
      const body = new URLSearchParams({
        token,
        token_type_hint: hint,
        client_id: client.client_id,
      });
      if (client.client_secret) body.set("client_secret", client.client_secret);
      const res = await (this.o.fetch ?? fetch)(endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      });
      await res.body?.cancel();
      ok &&= res.ok;
    }
    return ok;
  }

  /**
   * `opened` set: a sign-in, the authorization URL goes there. Null: a connection, which
   * may refresh but never replaces the verifier or state of a sign-in under way.
   */
  private provider(config: McpServerConfig, opened: { url: string | null } | null) {
    const id = config.id, serverUrl = config.url ?? "";
    const store = this.store, now = this.now;
    // The callback of the last sign-in: the code exchange and the registration go with it.
    const callback = store.peek(id, serverUrl).redirect ?? this.o.callbackUrl();
    const configured = config.oauth?.clientId
      ? {
        client_id: config.oauth.clientId,
        ...(config.oauth.clientSecret ? { client_secret: config.oauth.clientSecret } : {}),
      }
      : null;
    const rec = () => store.get(id, serverUrl);
    const p: OAuthClientProvider = {
      get redirectUrl() {
        return callback ?? undefined;
      },
      get clientMetadata(): OAuthClientMetadata {
        return {
          client_name: "ReinAgent",
          redirect_uris: callback ? [callback] : [],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: "none",
          ...(config.oauth?.scope ? { scope: config.oauth.scope } : {}),
        };
      },
      state: async () => (await rec()).state ?? stateToken(),
      clientInformation: async (): Promise<OAuthClientInformationMixed | undefined> => {
        if (configured) return configured;
        const r = await rec();
        // Registered for another callback (the port changed): register again.
        if (r.client && r.registeredRedirect !== (callback ?? "")) return undefined;
        return r.client;
      },
      saveClientInformation: (client: OAuthClientInformationMixed) =>
        store.update(id, serverUrl, (r) => ({
          ...r,
          client,
          registeredRedirect: callback ?? "",
        })),
      tokens: async (): Promise<OAuthTokens | undefined> => (await rec()).tokens,
      saveTokens: (tokens: OAuthTokens) =>
        store.update(id, serverUrl, (r) => ({
          ...r,
          // A refresh answer may leave the refresh token out: the old one stays valid.
          tokens: { ...tokens, refresh_token: tokens.refresh_token ?? r.tokens?.refresh_token },
          savedAt: now(),
        })),
      redirectToAuthorization: (url: URL) => {
        if (opened) opened.url = url.href;
      },
      saveCodeVerifier: async (verifier: string) => {
        if (opened) await store.update(id, serverUrl, (r) => ({ ...r, verifier }));
      },
      codeVerifier: async () => {
        const v = (await rec()).verifier;
        if (!v) throw new Error("no sign-in under way for this server");
        return v;
      },
      invalidateCredentials: (scope: string) =>
        store.update(id, serverUrl, (r) => {
          if (scope === "all") return null;
          if (scope === "tokens") return { ...r, tokens: undefined };
          if (scope === "client") return { ...r, client: undefined, registeredRedirect: undefined };
          if (scope === "verifier") return opened ? { ...r, verifier: undefined } : r;
          return r;
        }),
    };
    return p;
  }
}
