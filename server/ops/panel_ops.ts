/** Handlers for the ops in `server/protocol_panel.ts`. */
import type { PANEL_OP_ARGS } from "../protocol.ts";
import type { OpHandlers } from "./types.ts";

export const PANEL_HANDLERS: OpHandlers<keyof typeof PANEL_OP_ARGS> = {};
