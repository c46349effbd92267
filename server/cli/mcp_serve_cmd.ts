/**
 * `reinagent mcp serve [--home DIR]`: the workbench as an MCP server over stdio. With
 * a running instance for the home, its `/mcp` does the work (what the MCP client does
 * shows live in the open windows); without one, the server starts in this process
 * (its URL goes to stderr: stdout carries the protocol) and stops when stdin closes.
 */
import { netFetch } from "../../tools/net/proxy.ts";
import { instancePath, tokenPath } from "../home.ts";
import type { BridgeTarget } from "../mcp/server/stdio_bridge.ts";

/** The running instance of this home, when its health check answers with our token. */
export async function runningTarget(home: string): Promise<BridgeTarget | null> {
  let base: string;
  let token: string;
  try {
    base = JSON.parse(await Deno.readTextFile(instancePath(home))).base;
    token = (await Deno.readTextFile(tokenPath(home))).trim();
  } catch {
    return null;
  }
  if (typeof base !== "string") return null;
  try {
    const res = await netFetch(new URL("/api/health", base), {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(3000),
    });
    await res.body?.cancel();
    return res.ok ? { base, token } : null;
  } catch {
    return null; // stale instance file (the server crashed)
  }
}

export async function mcpServeCommand(home: string, log: (s: string) => void): Promise<number> {
  // Loaded here, not by the argument parser: the MCP SDK is heavy and only this path needs it.
  const [{ bridgeStdio }, { startApp }] = await Promise.all([
    import("../mcp/server/stdio_bridge.ts"),
    import("../app.ts"),
  ]);
  const running = await runningTarget(home);
  if (running) {
    log(`reinagent mcp: using the running instance at ${running.base}`);
    await bridgeStdio(running, log);
    return 0;
  }
  const app = await startApp({ home });
  log(`reinagent mcp: started ReinAgent at ${app.base} (open ${app.url} to watch)`);
  // Stopped by a signal: close the server properly (runs stopped, instance file removed).
  const stop = () => app.close().finally(() => Deno.exit(0));
  Deno.addSignalListener("SIGINT", stop);
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
  try {
    await bridgeStdio({ base: app.base, token: app.auth.token }, log);
  } finally {
    await app.close();
  }
  return 0;
}
