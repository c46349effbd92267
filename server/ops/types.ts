/** Handler types shared by the op modules. */
import type { OpArgs, OpName, OpResults } from "../../protocol/index.ts";
import type { OpContext } from "./context.ts";

/** Args were validated against the op's schema before a handler runs: their type is its type. */
export type Handler<K extends OpName> = (
  ctx: OpContext,
  args: OpArgs[K],
) => OpResults[K] | Promise<OpResults[K]>;
export type OpHandlers<K extends OpName> = { [P in K]: Handler<P> };
