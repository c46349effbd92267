/** Handlers for the ops in `server/protocol_composer.ts`. */
import type { COMPOSER_OP_ARGS } from "../protocol.ts";
import type { OpHandlers } from "./types.ts";

export const COMPOSER_HANDLERS: OpHandlers<keyof typeof COMPOSER_OP_ARGS> = {};
