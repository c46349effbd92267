/** Handler of `composer.enhance` (protocol/enhance.ts): the composer's ✨ button. */
import type { ENHANCE_OP_ARGS } from "../../protocol/index.ts";
import type { OpHandlers } from "./types.ts";
import { services } from "./context.ts";
import { OpError } from "../errors.ts";
import { resolveModel } from "../providers/catalog.ts";
import { adapterFor } from "../../agent/index.ts";
import { EnhanceError, enhancePrompt } from "../composer/enhance.ts";

export const ENHANCE_HANDLERS: OpHandlers<keyof typeof ENHANCE_OP_ARGS> = {
  "composer.enhance": async (ctx, a) => {
    const { repos } = services(ctx);
    // The model the composer shows: the task's, else the one picked for a new task.
    const ref = a.taskId ? repos.tasks.get(a.taskId)?.settings.model ?? null : a.model ?? null;
    let target;
    try {
      target = resolveModel(repos, ref);
    } catch (e) {
      throw new OpError("invalid_args", (e as Error).message);
    }
    if (target.provider.format === "demo") {
      throw new OpError(
        "invalid_args",
        "the Demo model cannot rewrite prompts; pick a real model in the composer",
      );
    }
    const adapter = await adapterFor(target.provider.format);
    try {
      const text = await enhancePrompt({ ...target, adapter }, a.text);
      return { text, model: `${target.provider.id}/${target.model.id}` };
    } catch (e) {
      if (e instanceof EnhanceError) throw new OpError("upstream", e.message);
      throw e;
    }
  },
};
