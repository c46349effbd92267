/**
 * `defineTool`: one definition per tool — name, description, argument schema (the
 * protocol's builder, or raw JSON Schema through `jsonSchemaArgs` for MCP tools),
 * permission kind, traits and `execute(args, ctx)`. The arguments are checked once
 * against the schema before `execute` sees them, so no tool re-checks its input; the
 * model gets the schema's JSON Schema and, for bad arguments, an error naming the
 * problem and the expected shape.
 *
 * @example
 * export const readFile = defineTool<{ path: string; offset?: number }>({
 *   name: "read_file",
 *   description: "Read a text file.",
 *   args: obj({ path: doc(str({ max: Infinity }), "File path"), "offset?": int({ min: 1, max: Infinity }) }),
 *   kind: "read",
 *   execute: (args, ctx) => …, // args.path is a string here
 * });
 *
 * Tools from elsewhere take the same shape: an MCP tool is
 * `defineTool({ name: "mcp__server__tool", args: jsonSchemaArgs(inputSchema), kind,
 * placement: "main", execute: (args) => client.callTool(…) })` — its server's JSON Schema
 * goes to the model unchanged and is checked by the small validator in json_schema.ts;
 * the `agent` tool is a builder-schema tool placed in "main" whose execute starts a
 * sub-run through a function the run hands it in the context (`RunnerContext.extra`).
 * Both join the built-ins in one `ToolRegistry`.
 */
import type { JsonSchema, Schema } from "../protocol/schema.ts";
import type { ToolPolicy } from "../protocol/domain.ts";
import type { AnyToolDetails } from "../protocol/tool_details.ts";
import { describeShape } from "./json_schema.ts";
import {
  fail,
  type ParsedArgs,
  type PermissionKind,
  type Placement,
  type Tool,
  type ToolContext,
  type ToolResult,
  type ToolTraits,
} from "./types.ts";

/** At most this many problems are listed; the rest are counted. */
const MAX_PROBLEMS = 4;

export interface ToolDefinition<T, D> {
  name: string;
  /** What the model reads to decide when and how to call the tool. */
  description: string;
  /** The arguments object; its type is the type `execute` gets. */
  args: Schema<T>;
  kind: PermissionKind;
  /** Default: "worker-read" for read tools, "worker-write" for write tools, else "main". */
  placement?: Placement;
  /** A tool marked `changesFiles` declares the mark in its details (`D`). */
  traits?: ToolTraits & ("changesFiles" extends keyof D ? unknown : { changesFiles?: false });
  /** A policy from the tool's configuration (MCP servers); a task's own rule wins. */
  policy?: ToolPolicy;
  /**
   * Runs the call; `args` passed the schema. A file tool may answer synchronously: it runs
   * in its own sandbox worker, where a blocking file call costs microseconds and an async
   * one a round trip through the runtime's thread pool.
   */
  execute(args: T, ctx: ToolContext): ToolResult<D> | Promise<ToolResult<D>>;
}

/** The error the model reads for arguments that do not fit the schema. */
export function argsError(name: string, problems: string[], expected: string): string {
  const shown = problems.slice(0, MAX_PROBLEMS).join("; ");
  const more = problems.length > MAX_PROBLEMS
    ? ` (and ${problems.length - MAX_PROBLEMS} more)`
    : "";
  return `${name}: ${shown}${more}. Expected: ${expected}`;
}

/**
 * Models often send `null` for an optional argument they mean to leave out: such keys
 * are dropped (unless the schema allows null there). Returns a copy when it drops any.
 */
function withoutNullOptionals(args: unknown, schema: JsonSchema): unknown {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return args;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const drop = Object.entries(args).filter(([k, v]) =>
    v === null && !required.has(k) && k in props && !allowsNull(props[k])
  );
  if (!drop.length) return args;
  const copy = { ...args } as Record<string, unknown>;
  for (const [k] of drop) delete copy[k];
  return copy;
}

const allowsNull = (s: JsonSchema): boolean =>
  s.type === "null" || (Array.isArray(s.type) && s.type.includes("null")) ||
  (Array.isArray(s.anyOf) && s.anyOf.some((a) => allowsNull(a as JsonSchema)));

export function defineTool<T = Record<string, unknown>, D = AnyToolDetails>(
  def: ToolDefinition<T, D>,
): Tool<T, D> {
  // Built when first needed: every start defines all the tools, and a sandbox worker
  // parses the arguments of the few it runs (the shape is only for error texts).
  let schema: JsonSchema | undefined;
  const parameters = () => schema ??= def.args.toJsonSchema();
  const parse = (raw: unknown): ParsedArgs<T> => {
    const args = withoutNullOptionals(raw, parameters());
    const problems = def.args.check(args, "args");
    return problems.length
      ? { ok: false, error: argsError(def.name, problems, describeShape(parameters())) }
      : { ok: true, args: args as T };
  };
  const traits = def.traits ?? {};
  // The UI's change card learns from the result itself which calls changed files (the
  // details of every tool with this trait declare `changesFiles`: see `traits`).
  const run = traits.changesFiles
    ? async (args: T, ctx: ToolContext): Promise<ToolResult<D>> => {
      const r = await def.execute(args, ctx);
      return r.isError ? r : { ...r, meta: { ...r.meta, changesFiles: true } as D };
    }
    : async (args: T, ctx: ToolContext) => await def.execute(args, ctx);
  return {
    name: def.name,
    description: def.description,
    get parameters() {
      return parameters();
    },
    kind: def.kind,
    placement: def.placement ??
      (def.kind === "read" ? "worker-read" : def.kind === "write" ? "worker-write" : "main"),
    traits,
    ...(def.policy ? { policy: def.policy } : {}),
    parse,
    run,
    execute(args, ctx) {
      const parsed = parse(args);
      return parsed.ok ? run(parsed.args, ctx) : Promise.resolve(fail(parsed.error));
    },
  };
}
