/**
 * `reinagent acp [--home DIR]`: ReinAgent as an Agent Client Protocol agent on stdio, for
 * editors (Zed, JetBrains, Neovim plugins …) that start an agent as a child process. It
 * drives the running instance of the data dir over its WebSocket, so an editor's session
 * is a task every window shows live; without a running instance one starts in this
 * process and stops when the editor closes stdin. stdout carries only the protocol:
 * everything else goes to stderr.
 */
import { runningTarget } from "./mcp_serve_cmd.ts";
import { remoteOpClient } from "./op_client.ts";
import { VERSION } from "../version.ts";

export async function acpCommand(home: string, log: (s: string) => void): Promise<number> {
  // Anything printed for humans must not land in the protocol stream.
  console.log = (...a: unknown[]) => console.error(...a);
  console.info = console.log;
  const [{ ndJsonStream }, { reinagentAcp }] = await Promise.all([
    import("@agentclientprotocol/sdk"),
    import("../acp/acp_agent.ts"),
  ]);
  const running = await runningTarget(home);
  let app: { base: string; auth: { token: string }; close(): Promise<void> } | null = null;
  let target = running;
  if (!target) {
    const { startApp } = await import("../app.ts");
    app = await startApp({ home, mode: "acp" });
    log(
      `reinagent acp: started ReinAgent at ${app.base} (open ${app.base} with the token to watch)`,
    );
    target = { base: app.base, token: app.auth.token };
  } else log(`reinagent acp: using the running instance at ${target.base}`);
  const ops = await remoteOpClient(target.base, target.token);
  try {
    const agent = reinagentAcp({ ops, version: VERSION, log });
    const conn = agent.connect(ndJsonStream(Deno.stdout.writable, Deno.stdin.readable));
    await conn.closed;
  } finally {
    await ops.close();
    await app?.close();
  }
  return 0;
}
