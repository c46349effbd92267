/**
 * `reinagent mcp serve`: MCP over stdio for clients that start a command (Claude Code,
 * Codex, …). Every message is relayed to the `/mcp` endpoint of a ReinAgent server
 * (the running instance for the home, or one started in this process), so the tools
 * act on the same live state as the windows and there is one implementation of them.
 */
import {
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  StdioServerTransport,
  StreamableHTTPClientTransport,
} from "./sdk.ts";
import process from "node:process";

export interface BridgeTarget {
  /** e.g. http://127.0.0.1:4567 */
  base: string;
  token: string;
}

/** Relays stdin/stdout to `target`'s `/mcp` until stdin closes; resolves then. */
export async function bridgeStdio(target: BridgeTarget, log: (s: string) => void): Promise<void> {
  const http = new StreamableHTTPClientTransport(new URL("/mcp", target.base), {
    requestInit: { headers: { authorization: `Bearer ${target.token}` } },
  });
  // A line longer than this ends the session (the server refuses bodies over 2 MiB anyway).
  const stdio = new StdioServerTransport(process.stdin, process.stdout, {
    maxBufferSize: 8 * 1024 * 1024,
  });
  const initIds = new Set<string | number>();
  let closed!: () => void;
  const done = new Promise<void>((r) => closed = r);

  http.onmessage = (msg: JSONRPCMessage) => {
    if (isJSONRPCResponse(msg) && initIds.delete(msg.id)) {
      const v = (msg.result as { protocolVersion?: string }).protocolVersion;
      if (v) http.setProtocolVersion(v); // later requests carry the negotiated version
    }
    void stdio.send(msg).catch(() => {});
  };
  http.onerror = (e: Error) => log(`reinagent mcp: ${e.message}`);
  stdio.onmessage = async (msg: JSONRPCMessage) => {
    if (isJSONRPCRequest(msg) && msg.method === "initialize") initIds.add(msg.id);
    try {
      await http.send(msg);
    } catch (e) {
      // The server is gone or refused the message: the caller gets an answer, not silence.
      if (isJSONRPCRequest(msg)) {
        await stdio.send({
          jsonrpc: "2.0",
          id: msg.id,
          error: { code: -32000, message: `ReinAgent at ${target.base}: ${(e as Error).message}` },
        }).catch(() => {});
      }
    }
  };
  stdio.onclose = () => closed();
  stdio.onerror = (e: Error) => log(`reinagent mcp: ${e.message}`);
  // The SDK's transport does not notice the end of stdin: the client went away.
  process.stdin.once("end", () => void stdio.close());
  await http.start();
  await stdio.start();
  await done;
  await http.terminateSession().catch(() => {});
  await http.close().catch(() => {});
}
