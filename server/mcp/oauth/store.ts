/**
 * What MCP OAuth sign-ins leave behind, per server id, in `<home>/mcp_oauth.json`
 * (mode 0600; the data folder is hidden from the agent's commands): the registered
 * client, the tokens, and the PKCE verifier and state of a sign-in under way. Written
 * whole (temp file + rename) and serialised, so two refreshes never interleave. The
 * file is only ever read by the server process; clients see {@link OAuthSummary}.
 */
import { join } from "../../../lib/path.ts";
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth";

export interface OAuthRecord {
  /** The MCP server URL the record belongs to: a changed URL starts over. */
  serverUrl: string;
  client?: OAuthClientInformationMixed;
  /** The redirect URL the client was registered with (the port can change). */
  registeredRedirect?: string;
  tokens?: OAuthTokens;
  /** When the tokens were saved (ms), to tell when `expires_in` runs out. */
  savedAt?: number;
  verifier?: string;
  /** The callback URL the last sign-in used (a phone's address, or the server's own). */
  redirect?: string;
  /** The `state` of the sign-in under way; the redirect must bring it back. */
  state?: string;
  /** The scope a server asked for more of (403 insufficient_scope): the next sign-in asks it. */
  wantScope?: string;
}

export const oauthPath = (home: string) => join(home, "mcp_oauth.json");

export class OAuthStore {
  #cache: Record<string, OAuthRecord> | null = null;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private home: string) {}

  async all(): Promise<Record<string, OAuthRecord>> {
    return await Promise.resolve(this.allSync());
  }

  /** Read once and kept: only this process writes the file. */
  allSync(): Record<string, OAuthRecord> {
    if (this.#cache) return this.#cache;
    try {
      const v = JSON.parse(Deno.readTextFileSync(oauthPath(this.home)));
      this.#cache = typeof v === "object" && v !== null && !Array.isArray(v) ? v : {};
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound) && !(e instanceof SyntaxError)) throw e;
      // A damaged file costs a sign-in, nothing else: it is replaced on the next save.
      this.#cache = {};
    }
    return this.#cache!;
  }

  /** The record as last saved (a save under way may not be in it yet). */
  peek(id: string, serverUrl: string): OAuthRecord {
    const r = this.allSync()[id];
    return r && r.serverUrl === serverUrl ? r : { serverUrl };
  }

  async get(id: string, serverUrl: string): Promise<OAuthRecord> {
    await this.#queue; // a save under way is seen
    const r = (await this.all())[id];
    return r && r.serverUrl === serverUrl ? r : { serverUrl };
  }

  /** Changes one record (null removes it) and writes the file. */
  update(
    id: string,
    serverUrl: string,
    fn: (r: OAuthRecord) => OAuthRecord | null,
  ): Promise<void> {
    const next = this.#queue.then(async () => {
      const all = await this.all();
      const cur = all[id]?.serverUrl === serverUrl ? all[id] : { serverUrl };
      const out = fn({ ...cur });
      if (out) all[id] = out;
      else delete all[id];
      const path = oauthPath(this.home);
      const tmp = `${path}.${crypto.randomUUID()}.tmp`;
      await Deno.writeTextFile(tmp, JSON.stringify(all, null, 2) + "\n", { mode: 0o600 });
      await Deno.rename(tmp, path);
    });
    this.#queue = next.catch(() => {});
    return next;
  }

  async remove(id: string): Promise<OAuthRecord | null> {
    const r = (await this.all())[id] ?? null;
    if (r) await this.update(id, r.serverUrl, () => null);
    return r;
  }

  /** The record whose sign-in under way carries `state`. */
  async byState(state: string): Promise<[string, OAuthRecord] | null> {
    if (!state) return null;
    for (const [id, r] of Object.entries(await this.all())) {
      if (r.state && r.state === state) return [id, r];
    }
    return null;
  }
}
