/**
 * `reinagent mcp add|list|remove|test`, like `claude mcp` / `codex mcp`: edits
 * `<home>/mcp_servers.json` directly (atomic writes; a corrupt file is reported and
 * left alone), so it works while a server runs — the running server re-reads the file
 * (it polls it and reads it at every turn). `list` and `test` start the servers in the
 * data dir's owner: the running instance when there is one.
 *
 *   reinagent mcp add ID [--env K=V]… [--cwd DIR] [--timeout MS] [--description TEXT]
 *       [--policy allow|ask|deny] [--disabled] -- CMD ARGS…
 *   reinagent mcp add ID --url URL [--header "K: V"]… [--sse]
 *   reinagent mcp list [--json]        status (connects to each enabled server) + tool count
 *   reinagent mcp remove ID
 *   reinagent mcp test ID              phase-tagged result, stderr tail
 *
 * Exit codes: 0 ok, 1 failed (a test failed, the file is corrupt), 2 bad input.
 */
import { applyProxyFile } from "../net/proxy_config.ts";
import { resolveHome } from "../home.ts";
import { openHomeClient, VIA_INSTANCE } from "./home_client.ts";
import { McpConfigError, readServers, updateServers } from "../mcp/config.ts";
import type { McpServerConfig, McpTestResult } from "../../protocol/mcp_servers.ts";
import type { McpCommand } from "./mcp_args.ts";

export { type McpCommand, parseMcpArgs } from "./mcp_args.ts";
import { masked } from "../mcp/secrets.ts";

export interface McpIo {
  out(line: string): void;
  err(line: string): void;
}

function describe(s: McpServerConfig): string {
  return s.transport === "stdio"
    ? [s.command, ...s.args].map((a) => /\s/.test(a) ? JSON.stringify(a) : a).join(" ")
    : `${s.url}${s.transport === "sse" ? " (SSE)" : ""}`;
}

function testLines(r: McpTestResult): string[] {
  if (r.ok) {
    return [
      `✓ ${r.id}: connected in ${r.durationMs} ms, ${r.toolCount} tool${
        r.toolCount === 1 ? "" : "s"
      }${r.protocolVersion ? ` (protocol ${r.protocolVersion})` : ""}`,
      ...r.tools.map((t) => `    ${t.agentName}  ${t.description.slice(0, 80)}`),
    ];
  }
  return [
    `✗ ${r.id}: failed at ${r.phase} after ${r.durationMs} ms: ${r.error}`,
    ...(r.stderrTail.length
      ? ["  stderr:", ...r.stderrTail.slice(-10).map((l) => `    ${l}`)]
      : []),
  ];
}

export async function mcpCommand(cmd: McpCommand, io: McpIo): Promise<number> {
  const home = resolveHome(cmd.home);
  if (cmd.action === "login" || cmd.action === "logout") {
    const { mcpLoginCommand } = await import("./mcp_login_cmd.ts");
    return await mcpLoginCommand(home, cmd.action, cmd.id, io);
  }
  await applyProxyFile(home); // `mcp test` of an HTTP server goes through the proxy setting
  try {
    if (cmd.action === "add") {
      let replaced = false;
      await Deno.mkdir(home, { recursive: true, mode: 0o700 });
      await updateServers(home, (list) => {
        replaced = list.some((s) => s.id === cmd.server.id);
        return [...list.filter((s) => s.id !== cmd.server.id), cmd.server];
      });
      io.out(
        `${
          replaced ? "Replaced" : "Added"
        } MCP server ${cmd.server.id} (${cmd.server.transport}): ${describe(cmd.server)}`,
      );
      io.out(`Check it with: reinagent mcp test ${cmd.server.id}`);
      return 0;
    }
    if (cmd.action === "remove") {
      let found = false;
      await updateServers(home, (list) => {
        found = list.some((s) => s.id === cmd.id);
        return list.filter((s) => s.id !== cmd.id);
      });
      if (!found) {
        io.err(`no MCP server "${cmd.id}"`);
        return 1;
      }
      io.out(`Removed MCP server ${cmd.id}`);
      return 0;
    }
    const read = readServers(home);
    if (!read.ok) {
      io.err(read.error);
      io.err("The file was left as it is; fix or remove it.");
      return 1;
    }
    if (cmd.action === "test" && !read.servers.some((s) => s.id === cmd.id)) {
      io.err(`no MCP server "${cmd.id}" in ${read.path}`);
      return 1;
    }
    // The servers are started by the data dir's owner: with the environment its commands
    // get (provider keys withheld), and without this process opening its database.
    const opened = await openHomeClient(home, "cli");
    if ("error" in opened) {
      io.err(`reinagent: ${opened.error}`);
      return 1;
    }
    if (opened.remote) io.err(VIA_INSTANCE);
    const client = opened.client;
    const test = (id: string) => client.request<McpTestResult>("mcp.test", { id });
    try {
      if (cmd.action === "test") {
        const r = await test(cmd.id);
        for (const l of testLines(r)) (r.ok ? io.out : io.err)(l);
        return r.ok ? 0 : 1;
      }
      // list: each enabled server is tried (in parallel) for its status and tool count.
      const results = await Promise.all(
        read.servers.map((s) => s.enabled ? test(s.id) : Promise.resolve(null)),
      );
      if (cmd.action === "list" && cmd.json) {
        io.out(JSON.stringify(
          read.servers.map((s, i) => ({
            ...masked(s),
            status: results[i] ? (results[i]!.ok ? "connected" : "failed") : "disabled",
            toolCount: results[i]?.ok ? results[i]!.toolCount : null,
            error: results[i]?.error ?? null,
            phase: results[i]?.phase ?? null,
          })),
          null,
          2,
        ));
        return 0;
      }
      if (!read.servers.length) {
        io.out(`No MCP servers (${read.path}). Add one: reinagent mcp add ID -- COMMAND ARGS…`);
        return 0;
      }
      read.servers.forEach((s, i) => {
        const r = results[i];
        const status = !r
          ? "disabled"
          : r.ok
          ? `✓ connected · ${r.toolCount} tool${r.toolCount === 1 ? "" : "s"}`
          : `✗ failed at ${r.phase}: ${r.error}`;
        io.out(`${s.id}: ${describe(s)} (${s.transport}) - ${status}`);
      });
      return 0;
    } finally {
      await client.close();
    }
  } catch (e) {
    if (e instanceof McpConfigError) {
      io.err(e.message);
      return 1;
    }
    throw e;
  }
}
