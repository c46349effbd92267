/** Handlers for the ops in `protocol/net.ts` (the outbound proxy setting). */
import type { NET_OP_ARGS } from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import { proxyView, saveProxySettings, unmaskPassword } from "../net/proxy_config.ts";
import type { OpHandlers } from "./types.ts";

export const NET_HANDLERS: OpHandlers<keyof typeof NET_OP_ARGS> = {
  "net.proxyGet": (ctx) => proxyView(ctx.home),
  "net.proxySet": async (ctx, a) => {
    try {
      await saveProxySettings(ctx.home, {
        url: await unmaskPassword(ctx.home, a.url?.trim() || null),
        noProxy: a.noProxy,
        loopback: a.loopback,
        system: a.system ?? false,
      });
    } catch (e) {
      throw new OpError("invalid_args", (e as Error).message);
    }
    return await proxyView(ctx.home);
  },
};
