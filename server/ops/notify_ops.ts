/** Handlers for the ops in `protocol/notify.ts` (notification switches, Web Push devices). */
import { type NOTIFY_OP_ARGS, NOTIFY_TOPIC } from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import type { NotifyCenter } from "../notify/notify_center.ts";
import type { OpContext } from "./context.ts";
import type { OpHandlers } from "./types.ts";

function center(ctx: OpContext): NotifyCenter {
  if (!ctx.notify) {
    throw new OpError(
      "store_unavailable",
      `the database could not be opened (${ctx.store.health.error}); it was left untouched`,
    );
  }
  return ctx.notify;
}

/** "Chrome on Android" from what the server saw of the client. */
function deviceLabel(ctx: OpContext): string {
  const i = ctx.client.info;
  if (!i || (!i.browser && !i.os)) return "Unknown device";
  return [i.browser, i.os].filter(Boolean).join(" on ");
}

export const NOTIFY_HANDLERS: OpHandlers<keyof typeof NOTIFY_OP_ARGS> = {
  "notify.subscribe": (ctx) => {
    const c = center(ctx);
    ctx.client.topics.add(NOTIFY_TOPIC);
    return { events: c.events(), devices: c.devices(), seq: ctx.hub.lastSeq };
  },
  "notify.setEvents": (ctx, a) => ({ events: center(ctx).setEvents(a.events) }),
  "push.key": async (ctx) => ({ publicKey: (await center(ctx).keys()).publicKey }),
  "push.register": (ctx, a) => ({
    device: center(ctx).register({
      endpoint: a.endpoint,
      p256dh: a.p256dh,
      auth: a.auth,
      device: a.device?.trim() || deviceLabel(ctx),
    }),
  }),
  "push.unregister": (ctx, a) => ({ removed: center(ctx).unregister(a.endpoint) }),
  "push.test": async (ctx, a) => {
    const r = await center(ctx).test(a.endpoint);
    return { ok: r.ok, status: r.status, ...(r.error ? { error: r.error } : {}) };
  },
};
