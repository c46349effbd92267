/**
 * Binding a task's options: every option the user left open takes the system default of
 * the moment the task is made, and is stored with the task. A default changed later
 * applies to new tasks only — an existing task's approval mode or sandbox never loosens
 * (or tightens) behind its back.
 */
import { DEMO_PROVIDER_ID, type TaskSettings } from "../../protocol/index.ts";
import type { SystemSettings } from "../../protocol/providers.ts";
import { DEMO_MODEL } from "../../agent/index.ts";

/** The options that follow a system default until bound. */
export type BoundOptions = Pick<TaskSettings, "model" | "effort" | "approval"> & {
  sandbox: NonNullable<TaskSettings["sandbox"]>;
};

/** `picked` (what the task chose, null/absent = open) with every open option filled from `sys`. */
export function bindOptions(
  picked: Partial<TaskSettings> | undefined,
  sys: SystemSettings,
): BoundOptions {
  return {
    // No default model ever chosen: the task runs with the Demo, so that is what it keeps.
    model: picked?.model ?? sys.defaultModel ??
      { providerId: DEMO_PROVIDER_ID, modelId: DEMO_MODEL.id },
    effort: picked?.effort ?? sys.defaultEffort,
    approval: picked?.approval ?? sys.defaultApproval,
    sandbox: picked?.sandbox ?? sys.sandboxLevel,
  };
}
