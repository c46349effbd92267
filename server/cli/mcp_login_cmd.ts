/**
 * `reinagent mcp login ID` / `logout ID`: OAuth for an http MCP server from the terminal.
 * The authorization server sends the browser back to a server of ours, so a sign-in goes
 * through the running instance; with none running, one is started here for as long as
 * the sign-in takes. The address to open is printed (the browser may be on a phone);
 * the command ends once the instance holds the tokens, and never prints a token whole.
 */
import { VIA_INSTANCE } from "./home_client.ts";
import { runningInstance } from "./op_client.ts";
import type { OpClient } from "./op_client.ts";
import type { McpOAuthSummary } from "../../protocol/mcp_servers.ts";

export interface LoginIo {
  out(line: string): void;
  err(line: string): void;
}

/** How long a sign-in may stay open before the command gives up. */
const SIGN_IN_WAIT_MS = 10 * 60_000;
const POLL_MS = 500;

function describe(id: string, s: McpOAuthSummary): string {
  return `Signed in to ${id} (token ${s.token ?? "?"}${s.scope ? `, scope ${s.scope}` : ""})`;
}

async function withInstance<T>(
  home: string,
  io: LoginIo,
  fn: (client: OpClient) => Promise<T>,
): Promise<T> {
  const running = await runningInstance(home);
  if (running) {
    io.err(VIA_INSTANCE);
    try {
      return await fn(running);
    } finally {
      await running.close();
    }
  }
  const { startApp } = await import("../app.ts");
  const { remoteOpClient } = await import("./op_client.ts");
  const app = await startApp({ home, mode: "cli" });
  io.err(`(started ReinAgent at ${app.base} to receive the sign-in; it stops afterwards)`);
  const client = await remoteOpClient(app.base, app.auth.token);
  try {
    return await fn(client);
  } finally {
    await client.close();
    await app.close();
  }
}

export async function mcpLoginCommand(
  home: string,
  action: "login" | "logout",
  id: string,
  io: LoginIo,
): Promise<number> {
  try {
    return await withInstance(home, io, async (client) => {
      if (action === "logout") {
        const r = await client.request<{ revokedAtServer: boolean }>("mcp.oauthSignOut", { id });
        io.out(
          r.revokedAtServer
            ? `Signed out of ${id}; its authorization server revoked the tokens.`
            : `Signed out of ${id} (its authorization server offers no revocation; the tokens were forgotten here).`,
        );
        return 0;
      }
      const { url } = await client.request<{ url: string | null }>("mcp.oauthStart", { id });
      if (!url) {
        const s = await client.request<McpOAuthSummary>("mcp.oauthStatus", { id });
        io.out(`${describe(id, s)}; nothing to do.`);
        return 0;
      }
      io.out(`Open this address in a browser to sign in to ${id}:`);
      io.out(url);
      const deadline = Date.now() + SIGN_IN_WAIT_MS;
      while (Date.now() < deadline) {
        const s = await client.request<McpOAuthSummary>("mcp.oauthStatus", { id });
        if (s.signedIn) {
          io.out(describe(id, s));
          return 0;
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
      io.err(`No sign-in within ${SIGN_IN_WAIT_MS / 60_000} minutes; run the command again.`);
      return 1;
    });
  } catch (e) {
    io.err(`reinagent: ${(e as Error).message}`);
    return 1;
  }
}
