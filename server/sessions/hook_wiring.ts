/**
 * The hook engine of a server: commands see what `exec_command` sees (the sandbox level
 * and network of the settings, the scrubbed environment, the data folder hidden), the
 * trust banner hears of untrusted hooks, and the approval gate asks PermissionRequest
 * hooks before the user.
 */
import { HOOKS_TOPIC } from "../../protocol/hooks.ts";
import type { Repos } from "../../store/store.ts";
import { DEFAULT_SANDBOX_LEVEL } from "../../tools/exec/exec_command.ts";
import { commandPolicy } from "../agent/command_policy.ts";
import { getSettings } from "../providers/catalog.ts";
import type { ApprovalCenter } from "./approvals.ts";
import type { EventHub } from "./hub.ts";
import { HookEngine } from "../agent/hooks/engine.ts";

export function hookEngineFor(
  home: string,
  repos: Repos,
  hub: EventHub,
  approvals: ApprovalCenter,
): HookEngine {
  const engine = new HookEngine({
    home,
    sandbox: () => {
      const s = getSettings(repos);
      const policy = commandPolicy(repos, home);
      return {
        sandbox: s.sandboxLevel ?? DEFAULT_SANDBOX_LEVEL,
        network: s.sandboxNetwork ?? true,
        envPolicy: policy.envPolicy,
        hidden: policy.hidden,
      };
    },
    publish: (e) => hub.publish(HOOKS_TOPIC, e),
  });
  approvals.beforeAsk = (taskId, call) =>
    engine.of(taskId)?.permission?.(call) ?? Promise.resolve(null);
  return engine;
}
