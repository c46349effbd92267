/**
 * Real third-party MCP servers from npm for interop tests, run with Deno's npm support
 * (fetched from the registry on first use). When they cannot be fetched the tests skip
 * loudly, unless REINAGENT_REQUIRE_BROWSER=1 (CI), which makes it a failure.
 */
import type { McpServerConfig } from "../../protocol/mcp_servers.ts";

export const EVERYTHING = "npm:@modelcontextprotocol/server-everything@2026.8.31";
export const FILESYSTEM = "npm:@modelcontextprotocol/server-filesystem@2026.8.31";

let fetched: Promise<boolean> | null = null;

/** Fetches both packages once; false (after a loud notice) when that is impossible. */
export function mcpPackagesAvailable(): Promise<boolean> {
  fetched ??= (async () => {
    const cwd = await Deno.makeTempDir({ prefix: "ra-mcp-fetch-" });
    try {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["cache", "--quiet", EVERYTHING, FILESYSTEM],
        cwd,
        stdout: "piped",
        stderr: "piped",
      }).output();
      if (out.success) return true;
      const msg = `cannot fetch the MCP test servers from npm: ${
        new TextDecoder().decode(out.stderr).slice(-500)
      }`;
      if (Deno.env.get("REINAGENT_REQUIRE_BROWSER") === "1") {
        throw new Error(`REINAGENT_REQUIRE_BROWSER=1 but ${msg}`);
      }
      console.warn(`\n${"!".repeat(72)}\n!! SKIPPED: ${msg}\n${"!".repeat(72)}\n`);
      return false;
    } finally {
      await Deno.remove(cwd, { recursive: true }).catch(() => {});
    }
  })();
  return fetched;
}

/** `server-everything` over stdio. */
export function everythingStdio(id = "everything"): McpServerConfig {
  return {
    id,
    enabled: true,
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", EVERYTHING, "stdio"],
    timeoutMs: 60_000,
  };
}

/** `server-filesystem` over stdio, allowed to touch `dir`. */
export function filesystemStdio(dir: string, id = "fs"): McpServerConfig {
  return {
    id,
    enabled: true,
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", FILESYSTEM, dir],
    timeoutMs: 60_000,
  };
}

export interface HttpServer {
  url: string;
  child: Deno.ChildProcess;
  stop(): Promise<void>;
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** `server-everything` over streamable HTTP (`/mcp`) or legacy SSE (`/sse`) on a free port. */
export async function everythingHttp(
  mode: "streamableHttp" | "sse",
  port = freePort(),
): Promise<HttpServer> {
  // Outside the project: its deno.json and lock file stay out of this.
  const cwd = await Deno.makeTempDir({ prefix: "ra-mcp-http-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", EVERYTHING, mode],
    cwd,
    env: { PORT: String(port) },
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  const path = mode === "sse" ? "/sse" : "/mcp";
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const c = await Deno.connect({ hostname: "127.0.0.1", port });
      c.close();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url: `http://127.0.0.1:${port}${path}`,
    child,
    async stop() {
      try {
        Deno.kill(-child.pid, "SIGKILL");
      } catch { /* gone */ }
      await child.status;
    },
  };
}
