/** Handlers for provider, model and system-settings ops. */
import type { PROVIDER_OP_ARGS } from "../protocol.ts";
import type { OpHandlers } from "./types.ts";

export const PROVIDER_HANDLERS: OpHandlers<keyof typeof PROVIDER_OP_ARGS> = {};
