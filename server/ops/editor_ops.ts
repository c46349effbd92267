/**
 * Handlers for the ops in `protocol/editor.ts`: a client speaking for an editor attaches
 * to a task (its file tools and commands then go through it) and answers what is asked.
 */
import type { EDITOR_OP_ARGS } from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import { services } from "./context.ts";
import type { OpHandlers } from "./types.ts";
import type { OpContext } from "./context.ts";
import type { EditorBridge } from "../sessions/editor_bridge.ts";

function bridgeOf(ctx: OpContext): EditorBridge {
  if (!ctx.editors) throw new OpError("internal", "editors are not available in this server");
  return ctx.editors;
}

export const EDITOR_HANDLERS: OpHandlers<keyof typeof EDITOR_OP_ARGS> = {
  "editor.attach": (ctx, a) => {
    services(ctx).tasks.get(a.id); // not_found for an unknown task
    try {
      bridgeOf(ctx).attach(a.id, ctx.client, {
        read: a.read,
        write: a.write,
        terminal: a.terminal,
      }, a.name);
    } catch (e) {
      throw new OpError("invalid_args", (e as Error).message);
    }
    return { id: a.id };
  },
  "editor.detach": (ctx, a) => {
    bridgeOf(ctx).detach(a.id, ctx.client.id);
    return { id: a.id };
  },
  "editor.reply": (ctx, a) => {
    if (a.outcome === "error" && a.error === undefined) {
      throw new OpError("invalid_args", "an error reply needs its error");
    }
    const answer = a.outcome === "error" ? { error: a.error! } : { result: a.result };
    if (!bridgeOf(ctx).reply(ctx.client.id, a.id, answer)) {
      throw new OpError("not_found", `no request ${a.id} waits for this client's answer`);
    }
    return { id: a.id };
  },
};
