/**
 * Candidates for the `@` picker: the workspace's files and folders (the glob/grep
 * walker: no symlink is entered, and a link is offered only when it stays inside the
 * workspace), without VCS folders, dependencies, build caches, ReinAgent's own
 * `.reinagent/` and the hidden paths (data folder, credential folders). One walk is
 * kept for a few seconds, so typing a query does not walk the tree on every key.
 */
import { join } from "../../lib/path.ts";
import type { MentionItem, ResourceMentionItem } from "../../protocol/index.ts";
import { MENTION_LIMITS } from "../../protocol/index.ts";
import { hiddenBelow, outsideRoots } from "../../tools/paths.ts";
import { SKIP_DIRS, walk } from "../../tools/walk.ts";
import { fuzzyRank, fuzzyScore } from "./fuzzy.ts";

const PICKER_SKIP: ReadonlySet<string> = new Set([
  ...SKIP_DIRS,
  ".reinagent",
  ".venv",
  "__pycache__",
  ".next",
  ".cache",
  ".turbo",
  ".gradle",
]);
/** A huge tree is cut here (the answer says so) rather than walked for seconds. */
const WALK_CAP = 20_000;
const WALK_MS = 1500;
const TTL_MS = 8000;

const cache = new Map<string, { at: number; items: MentionItem[]; capped: boolean }>();

async function candidates(
  workspace: string,
  hidden: readonly string[],
): Promise<{ items: MentionItem[]; capped: boolean }> {
  const hit = cache.get(workspace);
  if (hit && Date.now() - hit.at < TTL_MS) return hit;
  const items: MentionItem[] = [];
  let capped = false;
  const deadline = Date.now() + WALK_MS;
  const skipPaths = hiddenBelow(workspace, hidden);
  for await (const e of walk(workspace, { dirs: true, skipDirs: PICKER_SKIP, skipPaths })) {
    if (items.length >= WALK_CAP || Date.now() > deadline) {
      capped = true;
      break;
    }
    if (e.type === "file") items.push({ path: e.path, type: "file" });
    else if (e.type === "dir") items.push({ path: `${e.path}/`, type: "dir" });
    else if (e.type === "symlink") {
      const abs = join(workspace, e.path);
      if (outsideRoots(abs, [workspace])) continue; // leads out: never offered
      const st = await Deno.stat(abs).catch(() => null);
      if (st?.isFile) items.push({ path: e.path, type: "file" });
      else if (st?.isDirectory) items.push({ path: `${e.path}/`, type: "dir" });
    }
  }
  const out = { at: Date.now(), items, capped };
  cache.set(workspace, out);
  if (cache.size > 8) cache.delete(cache.keys().next().value!);
  return out;
}

/** The best matches of `query` in the workspace (≤ 50); `truncated` when there were more. */
export async function searchMentions(
  workspace: string,
  query: string,
  hidden: readonly string[],
): Promise<{ items: MentionItem[]; truncated: boolean }> {
  const { items, capped } = await candidates(workspace, hidden);
  const q = query.replace(/^\.\//, "");
  const ranked = fuzzyRank(items, q, MENTION_LIMITS.results);
  return { items: ranked.items, truncated: ranked.more || capped };
}

/**
 * The best MCP resources for `query` (≤ {@link MENTION_LIMITS.resourceRows}), matched on
 * their name and on their `server:uri` token; `more` when there were others.
 */
export function rankResources(
  items: readonly ResourceMentionItem[],
  query: string,
): { items: ResourceMentionItem[]; more: boolean } {
  const scored: { item: ResourceMentionItem; score: number }[] = [];
  for (const item of items) {
    const score = Math.max(fuzzyScore(item.name, query), fuzzyScore(item.path, query));
    if (score >= 0) scored.push({ item, score });
  }
  scored.sort((a, b) => b.score - a.score || a.item.path.length - b.item.path.length);
  const limit = MENTION_LIMITS.resourceRows;
  return { items: scored.slice(0, limit).map((s) => s.item), more: scored.length > limit };
}

/** Files and folders first, then resources; together at most {@link MENTION_LIMITS.results}. */
export function withResources(
  files: { items: MentionItem[]; truncated: boolean },
  resources: { items: ResourceMentionItem[]; more: boolean },
): { items: MentionItem[]; truncated: boolean } {
  const room = MENTION_LIMITS.results - resources.items.length;
  return {
    items: [...files.items.slice(0, room), ...resources.items],
    truncated: files.truncated || files.items.length > room || resources.more,
  };
}
