/** Handlers for the ops in `server/protocol_search.ts`. */
import type { SEARCH_OP_ARGS } from "../protocol.ts";
import type { OpHandlers } from "./types.ts";

export const SEARCH_HANDLERS: OpHandlers<keyof typeof SEARCH_OP_ARGS> = {};
