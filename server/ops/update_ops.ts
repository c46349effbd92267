/** Handlers for the ops in `protocol/update.ts` (About's "Update available"). */
import type { UPDATE_OP_ARGS } from "../../protocol/index.ts";
import { checkForUpdate } from "../update/check.ts";
import type { OpHandlers } from "./types.ts";

export const UPDATE_HANDLERS: OpHandlers<keyof typeof UPDATE_OP_ARGS> = {
  "update.check": async () => {
    const { manifest: _, ...c } = await checkForUpdate();
    return c;
  },
};
