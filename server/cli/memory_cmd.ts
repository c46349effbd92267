/**
 * `reinagent memory list|add|remove`: the memories the agent is reminded of, global or a
 * project's, through the running instance for the data dir when there is one, otherwise
 * in this process. Exit codes: 0 ok, 1 failed, 2 bad input.
 */
import type { MemoryBucketView, MemoryItem } from "../../protocol/memory.ts";
import { openHomeClient, VIA_INSTANCE } from "./home_client.ts";
import { OpClientError } from "./op_client.ts";
import type { MemoryCommand } from "./memory_args.ts";

interface Out {
  line(s: string): void;
  err(s: string): void;
}

export async function memoryCommand(cmd: MemoryCommand, home: string, out: Out): Promise<number> {
  const opened = await openHomeClient(home, "cli");
  if ("error" in opened) {
    out.err(`reinagent: ${opened.error}`);
    return 1;
  }
  if (opened.remote) out.err(VIA_INSTANCE);
  const { client } = opened;
  const bucket = cmd.project
    ? { scope: "project", projectPath: cmd.project }
    : { scope: "global", projectPath: null };
  try {
    if (cmd.action === "list") {
      const view = await client.request<MemoryBucketView>("memory.list", bucket);
      if (cmd.json) out.line(JSON.stringify(view.items, null, 2));
      else if (!view.items.length) out.line(`No memories (${view.dir}).`);
      else {
        for (const m of view.items) {
          out.line(`${m.id}  [${m.type}] ${m.title}${m.unreviewed ? " (not reviewed)" : ""}`);
        }
      }
      for (const p of view.problems) out.err(`${p.file}: ${p.error} (left as it is)`);
      return 0;
    }
    if (cmd.action === "add") {
      const { item } = await client.request<{ item: MemoryItem }>("memory.save", {
        ...bucket,
        title: cmd.title,
        description: cmd.description,
        type: cmd.type,
        body: cmd.body,
      });
      out.line(`Saved memory ${item.id}: ${item.title}`);
      return 0;
    }
    await client.request("memory.delete", { ...bucket, id: cmd.id });
    out.line(`Moved memory ${cmd.id} to the trash.`);
    return 0;
  } catch (e) {
    out.err(`reinagent: ${(e as Error).message}`);
    return e instanceof OpClientError && e.code === "invalid_args" ? 2 : 1;
  } finally {
    await client.close();
  }
}
