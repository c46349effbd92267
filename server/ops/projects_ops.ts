/** Handlers for the ops in `server/protocol_projects.ts`. */
import type { PROJECT_OP_ARGS } from "../protocol.ts";
import type { OpHandlers } from "./types.ts";

export const PROJECT_HANDLERS: OpHandlers<keyof typeof PROJECT_OP_ARGS> = {};
