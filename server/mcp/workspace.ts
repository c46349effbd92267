/**
 * A project's `.mcp.json` (Claude Code's `{"mcpServers": {...}}`): offered for import
 * once, never run on its own. The user's answer (imported or dismissed) is kept per
 * file together with a hash of its content, so the same file is not offered again —
 * and a changed file (new servers, a changed command) is offered again.
 */
import { createHash } from "node:crypto";
import { join } from "../../lib/path.ts";
import type { Repos } from "../../store/store.ts";
import type { McpServerConfig } from "../../protocol/mcp_servers.ts";
import { parseImportText } from "./imports.ts";

/** kv key: `{[file]: {hash, decision, at}}`. */
export const WORKSPACE_TRUST_KEY = "mcp.workspaceTrust";
const MAX_BYTES = 1_000_000;

type Decision = "imported" | "dismissed";
type Trust = Record<string, { hash: string; decision: Decision; at: number }>;

export interface WorkspaceOffer {
  file: string;
  servers: McpServerConfig[];
  problems: string[];
  /** How the user answered for this very content, or null (then it is offered). */
  decision: Decision | null;
  hash: string;
}

function trustOf(repos: Pick<Repos, "kv">): Trust {
  const v = repos.kv.get(WORKSPACE_TRUST_KEY);
  return v && typeof v === "object" && !Array.isArray(v) ? v as Trust : {};
}

/** The project's `.mcp.json`, or null when it has none (or an unreadable / huge one). */
export async function workspaceOffer(
  repos: Pick<Repos, "kv">,
  projectPath: string,
): Promise<WorkspaceOffer | null> {
  const file = join(projectPath, ".mcp.json");
  let text: string;
  try {
    const st = await Deno.stat(file);
    if (!st.isFile || st.size > MAX_BYTES) return null;
    text = await Deno.readTextFile(file);
  } catch {
    return null;
  }
  const hash = createHash("sha256").update(text).digest("hex");
  const { servers, problems } = parseImportText(text);
  const seen = trustOf(repos)[file];
  return { file, servers, problems, hash, decision: seen?.hash === hash ? seen.decision : null };
}

/** Records the user's answer for the file's current content. */
export function decideWorkspace(
  repos: Pick<Repos, "kv">,
  offer: WorkspaceOffer,
  decision: Decision,
  now: number,
): void {
  const trust = trustOf(repos);
  trust[offer.file] = { hash: offer.hash, decision, at: now };
  // Bounded: the oldest answers go first.
  const entries = Object.entries(trust).sort(([, a], [, b]) => b.at - a.at).slice(0, 200);
  repos.kv.set(WORKSPACE_TRUST_KEY, Object.fromEntries(entries));
}
