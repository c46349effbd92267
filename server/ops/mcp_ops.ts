/**
 * Handlers for the MCP page (protocol/mcp_servers.ts): the servers of
 * `<home>/mcp_servers.json` and their connections, edits (refused while the file is
 * corrupt — it is never overwritten), test and restart, imports. Every change is
 * pushed to every client on the `mcp` topic.
 */
import type { McpImportCandidate, McpOverview, McpServerConfig } from "../../protocol/index.ts";
import { MCP_OP_ARGS, MCP_TOPIC, mcpServerProblems, taskTopic } from "../../protocol/index.ts";
import { type OpContext, services, whoIs } from "./context.ts";
import type { OpHandlers } from "./types.ts";
import { OpError } from "../errors.ts";
import { McpConfigError, mcpLowered, readServers, updateServers } from "../mcp/config.ts";
import { type McpManager, McpOAuthError } from "../mcp/manager.ts";
import { ElicitationError } from "../mcp/elicitation.ts";
import { parseImportText, scanImports, uniqueIds } from "../mcp/imports.ts";
import { decideWorkspace, workspaceOffer } from "../mcp/workspace.ts";
import { masked, unmasked } from "../mcp/secrets.ts";

const userHome = () => Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? "";

function managerOf(ctx: OpContext): McpManager {
  if (!ctx.mcp) throw new OpError("internal", "MCP is not available in this server");
  return ctx.mcp;
}

/** Changes the file, then tells every client; a corrupt file is a clear error. */
async function change(
  ctx: OpContext,
  fn: (list: McpServerConfig[]) => McpServerConfig[],
): Promise<McpOverview> {
  const mcp = managerOf(ctx);
  let before: McpServerConfig[] = [];
  let after: McpServerConfig[] = [];
  try {
    after = await updateServers(ctx.home, (list) => {
      before = structuredClone(list);
      return fn(list);
    });
  } catch (e) {
    if (e instanceof McpConfigError) throw new OpError("conflict", e.message);
    throw e;
  }
  // A server that now runs, or tools allowed without asking: every client is told.
  ctx.safety.announce(whoIs(ctx), mcpLowered(before, after));
  const overview = await mcp.overview();
  ctx.hub.publish(MCP_TOPIC, { kind: "overview", overview });
  return overview;
}

function checked(s: McpServerConfig): McpServerConfig {
  const problems = mcpServerProblems(s, "server");
  if (problems.length) throw new OpError("invalid_args", problems.join("; "));
  return s;
}

async function existingIds(ctx: OpContext): Promise<Set<string>> {
  const read = await readServers(ctx.home);
  return new Set(read.ok ? read.servers.map((s) => s.id) : []);
}

const candidatesOf = (
  servers: McpServerConfig[],
  existing: Set<string>,
  source: string,
): McpImportCandidate[] =>
  servers.map((config) => ({ source, file: null, config, exists: existing.has(config.id) }));

/** OAuth requests: what cannot be asked is the caller's error, a server's refusal upstream. */
async function oauth<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof OpError) throw e;
    if (e instanceof McpOAuthError) throw new OpError("invalid_args", e.message);
    throw new OpError("upstream", `OAuth: ${(e as Error).message ?? e}`);
  }
}

export const MCP_HANDLERS: OpHandlers<keyof typeof MCP_OP_ARGS> = {
  "mcp.list": (ctx) => managerOf(ctx).overview(),
  "mcp.save": (ctx, { server, previousId }) => {
    checked(server);
    return change(ctx, (list) => {
      const from = previousId ?? server.id;
      if (from !== server.id && list.some((s) => s.id === server.id)) {
        throw new OpError("conflict", `an MCP server "${server.id}" exists already`);
      }
      const i = list.findIndex((s) => s.id === from);
      // Secrets the page got masked and sent back untouched stay what they were.
      if (i >= 0) list[i] = unmasked(server, list[i]);
      else list.push(server);
      return list;
    });
  },
  "mcp.remove": (ctx, { id }) =>
    change(ctx, (list) => {
      if (!list.some((s) => s.id === id)) throw new OpError("not_found", `no MCP server "${id}"`);
      return list.filter((s) => s.id !== id);
    }),
  "mcp.setEnabled": (ctx, { id, enabled }) =>
    change(ctx, (list) => {
      const s = list.find((x) => x.id === id);
      if (!s) throw new OpError("not_found", `no MCP server "${id}"`);
      s.enabled = enabled;
      return list;
    }),
  "mcp.test": async (ctx, { id, server }) => {
    const mcp = managerOf(ctx);
    if (server) {
      const read = await readServers(ctx.home);
      const stored = read.ok ? read.servers.find((s) => s.id === (id ?? server.id)) : undefined;
      return mcp.test(unmasked(server, stored));
    }
    if (!id) throw new OpError("invalid_args", "give the id of a server or a server to test");
    const read = readServers(ctx.home);
    if (!read.ok) throw new OpError("conflict", read.error);
    const found = read.servers.find((s) => s.id === id);
    if (!found) throw new OpError("not_found", `no MCP server "${id}"`);
    return mcp.test(found);
  },
  "mcp.restart": (ctx, { id }) => managerOf(ctx).restart(id),
  "mcp.oauthStart": (ctx, { id, origin }) => oauth(() => managerOf(ctx).oauthStart(id, origin)),
  "mcp.oauthStatus": (ctx, { id }) => oauth(() => managerOf(ctx).oauthStatus(id)),
  "mcp.oauthSignOut": (ctx, { id }) => oauth(() => managerOf(ctx).oauthSignOut(id)),
  "mcp.elicitations": (ctx, { taskId }) => ({
    list: managerOf(ctx).elicitations.visibleTo(ctx.client.topics, taskTopic, taskId),
  }),
  "mcp.elicitationAnswer": (ctx, { id, action, content }) => {
    try {
      managerOf(ctx).elicitations.answer(id, action, content);
    } catch (e) {
      if (e instanceof ElicitationError) throw new OpError("invalid_args", e.message);
      throw e;
    }
    return { id };
  },
  "mcp.parseImport": async (ctx, { text }) => {
    const { servers, problems } = parseImportText(text);
    return { candidates: candidatesOf(servers, await existingIds(ctx), "json"), problems };
  },
  "mcp.scanImports": async (ctx, { projectPath }) => {
    const r = await scanImports(userHome(), await existingIds(ctx), projectPath);
    // Other tools' secrets are not sent to clients: masked here, read again on import.
    return { ...r, candidates: r.candidates.map((c) => ({ ...c, config: masked(c.config) })) };
  },
  "mcp.workspace": async (ctx, { projectPath }) => {
    const offer = await workspaceOffer(services(ctx).repos, projectPath);
    if (!offer || offer.decision || !offer.servers.length) return { offer: null };
    const { file, servers, problems } = offer;
    return { offer: { projectPath, file, servers, problems } };
  },
  "mcp.workspaceDecide": async (ctx, { projectPath, decision }) => {
    const { repos } = services(ctx);
    const offer = await workspaceOffer(repos, projectPath);
    if (!offer) throw new OpError("not_found", `${projectPath} has no readable .mcp.json`);
    let imported: string[] = [];
    let overview: McpOverview;
    if (decision === "import" && offer.servers.length) {
      overview = await change(ctx, (list) => {
        const r = uniqueIds(offer.servers, new Set(list.map((s) => s.id)));
        imported = r.servers.map((s) => s.id);
        return [...list, ...r.servers];
      });
    } else overview = await managerOf(ctx).overview();
    decideWorkspace(repos, offer, decision === "import" ? "imported" : "dismissed", Date.now());
    return { imported, overview };
  },
  "mcp.import": async (ctx, { servers: sent, projectPath }) => {
    sent.forEach(checked);
    const found = (await scanImports(userHome(), new Set(), projectPath)).candidates;
    const servers = sent.map((s) => unmasked(s, found.find((c) => c.config.id === s.id)?.config));
    let imported: string[] = [];
    let renamed: Record<string, string> = {};
    const overview = await change(ctx, (list) => {
      const r = uniqueIds(servers, new Set(list.map((s) => s.id)));
      imported = r.servers.map((s) => s.id);
      renamed = r.renamed;
      return [...list, ...r.servers];
    });
    return { overview, imported, renamed };
  },
};
