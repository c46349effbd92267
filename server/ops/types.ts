/** Handler types shared by the op modules. */
import type { OpName, OpResults } from "../../protocol/index.ts";
import type { OpContext } from "./context.ts";

/** Args were validated against the op's schema before a handler runs. */
// deno-lint-ignore no-explicit-any
type ValidArgs = any;
export type Handler<K extends OpName> = (
  ctx: OpContext,
  args: ValidArgs,
) => OpResults[K] | Promise<OpResults[K]>;
export type OpHandlers<K extends OpName> = { [P in K]: Handler<P> };
