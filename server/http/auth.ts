/**
 * Access token: random, verified by SHA-256 hash in constant time. Accepted as
 * `?token=`, `Authorization: Bearer`, or the HttpOnly cookie set on first visit.
 * The plain token lives only in `<home>/token` (mode 0600) so the server can print
 * the URL again after a restart; resetting it invalidates every client.
 */
import { constantTimeEqual } from "../../lib/bytes.ts";
import { sha256 } from "../../lib/sha256.ts";
import { tokenPath } from "../home.ts";

export type Credential = { token: string; via: "query" | "bearer" | "cookie" } | null;

export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}

export class Auth {
  private hash: Uint8Array;
  private listeners = new Set<() => void>();

  private constructor(private home: string, private plain: string) {
    this.hash = sha256(plain);
  }

  /** Loads the token from the data dir, creating one on first start. */
  static async load(home: string): Promise<Auth> {
    const path = tokenPath(home);
    let token: string;
    try {
      token = (await Deno.readTextFile(path)).trim();
      if (token.length < 16) throw new Error(`token file ${path} is damaged (too short)`);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
      token = newToken();
      await Deno.writeTextFile(path, token + "\n", { mode: 0o600 });
    }
    return new Auth(home, token);
  }

  /** The plain token, for printing the URL to the local user. */
  get token(): string {
    return this.plain;
  }

  verify(candidate: string): boolean {
    const h = sha256(candidate);
    return constantTimeEqual(h, this.hash);
  }

  /** Cookie names include the port: cookies are per host, not per port. */
  cookieName(port: number): string {
    return `reinagent_${port}`;
  }

  /** The credential a request presents, if any (query first, then bearer, then cookie). */
  credential(req: Request, url: URL, port: number): Credential {
    const q = url.searchParams.get("token");
    if (q) return { token: q, via: "query" };
    const authz = req.headers.get("authorization");
    if (authz?.startsWith("Bearer ")) return { token: authz.slice(7).trim(), via: "bearer" };
    const cookie = readCookie(req.headers.get("cookie"), this.cookieName(port));
    if (cookie) return { token: cookie, via: "cookie" };
    return null;
  }

  /** Replaces the token; every connected client is dropped through `onReset`. */
  async reset(): Promise<string> {
    const token = newToken();
    await Deno.writeTextFile(tokenPath(this.home), token + "\n", { mode: 0o600 });
    this.plain = token;
    this.hash = sha256(token);
    for (const fn of this.listeners) fn();
    return token;
  }

  onReset(fn: () => void): void {
    this.listeners.add(fn);
  }
}

export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      return decodeURIComponent(part.slice(eq + 1).trim());
    }
  }
  return null;
}
