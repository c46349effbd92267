/** Handlers for the ops in `server/protocol_history.ts`. */
import type { HISTORY_OP_ARGS } from "../protocol.ts";
import type { OpHandlers } from "./types.ts";

export const HISTORY_HANDLERS: OpHandlers<keyof typeof HISTORY_OP_ARGS> = {};
