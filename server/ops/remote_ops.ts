/** Handlers for the ops in `protocol/remote.ts` (Settings → Remote access). */
import type { REMOTE_OP_ARGS } from "../../protocol/index.ts";
import type { RemoteAccess } from "../sessions/remote_access.ts";
import { OpError } from "../errors.ts";
import type { OpContext } from "./context.ts";
import type { OpHandlers } from "./types.ts";

/** In-process harnesses (tests, `reinagent run` without a server) have no HTTP side. */
function remoteOf(ctx: OpContext): RemoteAccess {
  if (!ctx.remote) throw new OpError("not_found", "remote access needs the HTTP server");
  return ctx.remote;
}

export const REMOTE_HANDLERS: OpHandlers<keyof typeof REMOTE_OP_ARGS> = {
  "remote.info": (ctx) => remoteOf(ctx).info(ctx.client),
  "remote.resetToken": async (ctx) => {
    const remote = remoteOf(ctx);
    const token = await remote.resetToken(ctx.client);
    return { info: await remote.info(ctx.client), token };
  },
  "remote.setTrustProxy": async (ctx, a) => {
    const remote = remoteOf(ctx);
    await remote.setTrustProxy(a.enabled);
    return await remote.info(ctx.client);
  },
};
