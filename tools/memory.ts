/**
 * `memory`: the agent's long-term notes — list, read, search, write, update,
 * delete memories in the global bucket or the task's project bucket (store/memory/).
 *
 * The review rule: what the model writes is a proposal (`unreviewed`, never in the
 * reminder) until the user accepts it on the Memory page — unless the user's own latest
 * message asked for it ("remember …", "记住…": `userAsked`, decided by the server from the
 * user's words, never by the model). Memories the user accepted are changed or deleted
 * only on such a request too. A turn may change at most {@link WRITES_PER_TURN} memories.
 *
 * The run lends each call a {@link MemoryAccess} in its context; sub-agents get none.
 */
import { defineTool } from "./define.ts";
import type { ToolDetails } from "../protocol/tool_details.ts";
import { doc, obj, oneOf, str } from "../protocol/schema.ts";
import {
  MEMORY_ACTIONS,
  MEMORY_LIMITS,
  MEMORY_SCOPES,
  MEMORY_TYPES,
  type MemoryItem,
  type MemoryScope,
  type MemoryType,
} from "../protocol/memory.ts";
import { fail, type MemoryAccess, ok, type ToolContext, type ToolResult } from "./types.ts";
import { type Bucket, MemoryError } from "../store/memory/paths.ts";

export const WRITES_PER_TURN = 10;

export type { MemoryAccess } from "./types.ts";

type MemoryArgs = {
  action: typeof MEMORY_ACTIONS[number];
  scope?: MemoryScope;
  id?: string;
  query?: string;
  title?: string;
  description?: string;
  type?: MemoryType;
  body?: string;
};

const L = MEMORY_LIMITS;

const accessOf = (ctx: ToolContext): MemoryAccess | null => ctx.memory ?? null;

const line = (i: MemoryItem) =>
  `- ${i.id} [${i.scope}, ${i.type}${i.unreviewed ? ", unreviewed" : ""}] ${i.title}` +
  (i.description ? ` — ${i.description}` : "");

export const memoryTool = defineTool<MemoryArgs, ToolDetails<"memory">>({
  name: "memory",
  description: "Long-term memory across tasks: facts and preferences worth keeping (how the " +
    "user likes to work, decisions about this project, where things are). Actions: list, read " +
    "{id}, search {query}, write {title, body, description?, type?, scope?}, update {id, …}, " +
    "delete {id}. scope: project (this workspace, the default) or global (every project). " +
    "What you write is a proposal the user reviews before it counts as a fact — unless the " +
    "user asked you to remember it. Keep each memory short and self-contained; never store " +
    "secrets. Accepted memories are listed in the reminder; read one for its full text.",
  args: obj({
    action: oneOf(MEMORY_ACTIONS),
    "scope?": doc(oneOf(MEMORY_SCOPES), "project (default for write) or global"),
    "id?": doc(str({ min: 1, max: 200 }), "The memory's id (read, update, delete)"),
    "query?": doc(str({ max: L.queryChars }), "Words to find (search)"),
    "title?": doc(str({ max: L.titleChars }), "A short title (write, update)"),
    "description?": doc(
      str({ max: L.descriptionChars }),
      "One line saying when this memory matters (write, update)",
    ),
    "type?": doc(oneOf(MEMORY_TYPES), "user, feedback, project or reference"),
    "body?": doc(str({ max: L.bodyChars }), "The memory itself, Markdown (write, update)"),
  }),
  // Changes no workspace file: writes are proposals, and user memories change only when
  // the user asked (checked below), so no approval is needed.
  kind: "read",
  placement: "main",
  // Its calls count against a per-turn cap and may touch the same file: in the model's order.
  traits: { sequential: true },
  async execute(args, ctx) {
    const access = accessOf(ctx);
    if (!access) {
      return fail("The memory tool is not available here (sub-agents cannot use it).");
    }
    try {
      return await run(args, access);
    } catch (e) {
      if (e instanceof MemoryError) return fail(`memory ${args.action}: ${e.message}`);
      throw e;
    }
  },
});

async function run(a: MemoryArgs, m: MemoryAccess): Promise<ToolResult<ToolDetails<"memory">>> {
  const buckets = (scope?: MemoryScope): Bucket[] =>
    (scope ? [scope] : (["project", "global"] as const)).map((s) =>
      m.files.bucket(s, s === "project" ? m.projectPath : null)
    );
  const need = (field: "id" | "query" | "title" | "body") => {
    const v = a[field];
    if (typeof v !== "string" || !v.trim()) {
      throw new MemoryError("invalid", `"${field}" is required for ${a.action}`);
    }
    return v;
  };
  /** The bucket that holds `id` (project first when no scope is given). */
  const find = async (id: string) => {
    let last: MemoryError | null = null;
    for (const b of buckets(a.scope)) {
      try {
        return { b, item: await m.files.read(b, id) };
      } catch (e) {
        if (!(e instanceof MemoryError) || e.code !== "not_found") throw e;
        last = e;
      }
    }
    throw last!;
  };
  const spend = () => {
    if (m.writes.n >= WRITES_PER_TURN) {
      throw new MemoryError(
        "refused",
        `at most ${WRITES_PER_TURN} memory changes per turn; ask the user before going on`,
      );
    }
    m.writes.n++;
  };
  const told = <T extends MemoryItem>(item: T, b: Bucket): T => {
    m.changed?.(b.scope, b.projectPath);
    return item;
  };
  const guardAccepted = (item: MemoryItem, verb: string) => {
    if (!item.unreviewed && !m.userAsked) {
      throw new MemoryError(
        "refused",
        `"${item.id}" was accepted by the user; ${verb} it only when the user asks you to`,
      );
    }
  };
  const meta = (item: MemoryItem | null): ToolDetails<"memory"> => ({
    memory: item
      ? { action: a.action, id: item.id, scope: item.scope, unreviewed: item.unreviewed }
      : { action: a.action },
  });

  switch (a.action) {
    case "list": {
      const out: string[] = [];
      let problems = 0;
      for (const b of buckets(a.scope)) {
        const { items, problems: p } = await m.files.list(b);
        problems += p.length;
        out.push(`## ${b.scope} (${items.length})`, ...items.map(line));
      }
      if (problems) out.push(`(${problems} file(s) could not be read; the user can see them)`);
      return ok(out.join("\n"), meta(null));
    }
    case "read": {
      const { item } = await find(need("id"));
      const state = item.unreviewed
        ? "unreviewed proposal (not confirmed by the user)"
        : "accepted";
      return ok(
        `# ${item.title}\nid: ${item.id} · ${item.scope} · ${item.type} · ${state}\n` +
          (item.description ? `${item.description}\n` : "") + `\n${item.body}`,
        meta(item),
      );
    }
    case "search": {
      const q = need("query");
      const hits = (await Promise.all(buckets(a.scope).map((b) => m.files.search(b, q)))).flat();
      if (!hits.length) return ok(`No memory matches "${q}".`, meta(null));
      return ok(hits.map((h) => `${line(h.item)}\n  ${h.snippet}`).join("\n"), meta(null));
    }
    case "write": {
      const scope = a.scope ?? "project";
      const [b] = buckets(scope);
      spend();
      const item = told(
        await m.files.create(b, {
          title: need("title"),
          body: need("body"),
          description: a.description ?? "",
          type: a.type ?? (scope === "global" ? "user" : "project"),
        }, {
          source: m.userAsked ? "tool-user-asked" : "tool",
          unreviewed: !m.userAsked,
          ...(a.id ? { id: a.id } : {}),
        }),
        b,
      );
      return ok(
        `Saved memory "${item.id}" (${scope}). ` +
          (item.unreviewed
            ? "It is a proposal until the user accepts it on the Memory page."
            : "The user asked for it, so it is accepted."),
        meta(item),
      );
    }
    case "update": {
      const { b, item: old } = await find(need("id"));
      guardAccepted(old, "change");
      spend();
      const item = told(
        await m.files.update(b, old.id, {
          ...(a.title !== undefined ? { title: a.title } : {}),
          ...(a.description !== undefined ? { description: a.description } : {}),
          ...(a.type !== undefined ? { type: a.type } : {}),
          ...(a.body !== undefined ? { body: a.body } : {}),
        }, {
          source: m.userAsked ? "tool-user-asked" : "tool",
          unreviewed: !m.userAsked,
        }),
        b,
      );
      return ok(`Updated memory "${item.id}" (${item.scope}).`, meta(item));
    }
    case "delete": {
      const { b, item } = await find(need("id"));
      guardAccepted(item, "delete");
      spend();
      await m.files.remove(b, item.id);
      told(item, b);
      return ok(`Deleted memory "${item.id}" (moved to the memory trash).`, meta(item));
    }
  }
}
