/**
 * Arguments of `reinagent memory list|add|remove` (see memory_cmd.ts), parsed without
 * loading the server.
 *
 *   reinagent memory list [--project DIR] [--json]
 *   reinagent memory add "<title>" --body TEXT [--type user|feedback|project|reference]
 *       [--description TEXT] [--project DIR]
 *   reinagent memory remove ID [--project DIR]
 */
import { resolve } from "../../lib/path.ts";
import { MEMORY_TYPES, type MemoryType } from "../../protocol/memory.ts";
import { parseFlags } from "./flags.ts";

interface Bucket {
  /** A project's memories instead of the global ones. */
  project: string | null;
  home?: string;
}

export type MemoryCommand =
  | { kind: "memory"; action: "list"; json: boolean } & Bucket
  | {
    kind: "memory";
    action: "add";
    title: string;
    body: string;
    type: MemoryType;
    description: string;
  } & Bucket
  | { kind: "memory"; action: "remove"; id: string } & Bucket;

export function parseMemoryArgs(argv: string[]): { command: MemoryCommand } | { error: string } {
  const f = parseFlags(argv, {
    values: ["--home", "--project", "--body", "--type", "--description"],
    bools: ["--json"],
  });
  if ("error" in f) return f;
  const [action, ...rest] = f.positional;
  const bucket: Bucket = {
    project: f.values["--project"] ? resolve(f.values["--project"]) : null,
    ...(f.values["--home"] ? { home: f.values["--home"] } : {}),
  };
  if (action === "list") {
    if (rest.length) return { error: `unexpected argument "${rest[0]}"` };
    return { command: { kind: "memory", action, json: f.bools.has("--json"), ...bucket } };
  }
  if (action === "add") {
    const title = rest.join(" ").trim();
    if (!title) return { error: 'memory add needs a title: memory add "<title>" --body TEXT' };
    const body = f.values["--body"];
    if (body === undefined) return { error: "memory add needs --body TEXT" };
    const type = f.values["--type"] ?? "user";
    if (!(MEMORY_TYPES as readonly string[]).includes(type)) {
      return { error: `--type must be one of ${MEMORY_TYPES.join(", ")}` };
    }
    return {
      command: {
        kind: "memory",
        action,
        title,
        body,
        type: type as MemoryType,
        description: f.values["--description"] ?? "",
        ...bucket,
      },
    };
  }
  if (action === "remove") {
    if (rest.length !== 1) return { error: "memory remove needs one ID" };
    return { command: { kind: "memory", action, id: rest[0], ...bucket } };
  }
  return {
    error: `memory needs "list", "add" or "remove", got ${action ? `"${action}"` : "nothing"}`,
  };
}
