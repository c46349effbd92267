/**
 * What a command the agent starts may see (issue: the shell sandbox must keep the
 * agent's own secrets and control plane out of reach): the environment policy and the
 * paths masked inside the sandbox. Built fresh for every command from the settings
 * and the stored providers, so a new key or allow-list entry applies at once.
 */
import { join } from "../../lib/path.ts";
import type { Repos } from "../../store/store.ts";
import { commandEnv, type EnvPolicy, type WithheldReason } from "../../tools/exec/env_policy.ts";
import { getSettings } from "../providers/catalog.ts";
import { WORKSPACE_ATTACHMENTS } from "../../protocol/composer.ts";

/** kv key: variables provider keys were read from (`providers add --api-key-env`). */
export const KEY_ENV_NAMES = "security.keyEnvNames";

export interface CommandPolicy {
  envPolicy: EnvPolicy;
  /** Absolute paths masked inside the sandbox (may not exist). */
  hidden: string[];
}

const userHome = () => Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");

/** `~/x` → `<user home>/x`; other paths unchanged. */
export function expandHome(path: string, home = userHome()): string {
  if (!path.startsWith("~/")) return path;
  return home ? join(home, path.slice(2)) : path;
}

/** Remembers that a provider key came from variable `name` (never its value). */
export function recordKeyEnvName(repos: Pick<Repos, "kv">, name: string): void {
  const names = keyEnvNames(repos);
  if (!names.includes(name)) repos.kv.set(KEY_ENV_NAMES, [...names, name].sort());
}

function keyEnvNames(repos: Pick<Repos, "kv">): string[] {
  const v = repos.kv.get(KEY_ENV_NAMES);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/** The policy for commands of a server whose data folder is `home`. */
export function commandPolicy(repos: Pick<Repos, "kv" | "providers">, home: string): CommandPolicy {
  const s = getSettings(repos);
  const user = userHome();
  let env: EnvPolicy | undefined;
  return {
    // Read when a command starts (file tools, most calls, never need it): the stored
    // providers' keys are then current.
    get envPolicy() {
      return env ??= {
        providerNames: keyEnvNames(repos),
        secretValues: repos.providers.list().map((p) => p.apiKey).filter(Boolean),
        allow: s.commandEnvAllow,
      };
    },
    // The whole data folder: token, instance.json, the DB and its WAL, uploads,
    // checkpoints, the window profile. A workspace inside it is bound back.
    hidden: [home, ...s.hiddenPaths.map((p) => expandHome(p, user))],
  };
}

/**
 * Attachments inside a workspace belong to the task that received them: the shared
 * folder is hidden and only this task's own attachment folders are bound back.
 */
export function attachmentMasks(
  workspace: string,
  ownIds: readonly string[],
): { hidden: string[]; visible: string[] } {
  const dir = join(workspace, WORKSPACE_ATTACHMENTS);
  return { hidden: [dir], visible: ownIds.map((id) => join(dir, id)) };
}

/** What `reinagent doctor` and Settings show: names withheld from commands, never values. */
export function describeCommandEnv(
  repos: Pick<Repos, "kv" | "providers">,
  home: string,
): { withheld: { name: string; reason: WithheldReason }[]; allow: string[]; hidden: string[] } {
  const p = commandPolicy(repos, home);
  return {
    withheld: commandEnv(Deno.env.toObject(), p.envPolicy).withheld,
    allow: [...(p.envPolicy.allow ?? [])],
    hidden: p.hidden,
  };
}
