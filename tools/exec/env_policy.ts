/**
 * The environment every command the agent starts gets (exec_command, background_bash,
 * later hooks and MCP stdio servers), with or without a sandbox: the server's own
 * environment minus what would hand the agent a credential or a way into ReinAgent.
 *
 * Withheld, in this order of precedence:
 * 1. `provider`: variables a provider's key was read from, and any variable whose value
 *    is a stored provider key (whatever its name) — never let through;
 * 2. `reinagent` / `deno`: `REINAGENT_*` and Deno's permission/prompt variables — never;
 * 3. `secret`: names that look like credentials (see {@link SECRET_NAME_RE}) unless the
 *    user's allow-list names them (e.g. `GH_TOKEN` for `gh`).
 *
 * @example
 * ```ts
 * const { env } = commandEnv(Deno.env.toObject(), { providerNames: ["DEEPSEEK_API_KEY"] });
 * ```
 */
import { byCodeUnit } from "../../lib/compare.ts";

/** `*KEY*`, `*SECRET*`, `*TOKEN*`, `*PASSWORD*`, `*CREDENTIAL*`, `*_PAT` (any case). */
export const SECRET_NAME_RE = /KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL|_PAT$/i;

/** Deno variables that change permission prompts or carry registry credentials. */
export const DENO_CONTROL_VARS: readonly string[] = [
  "DENO_NO_PROMPT",
  "DENO_TRACE_PERMISSIONS",
  "DENO_PERMISSION_BROKER_PATH",
  "DENO_AUTH_TOKENS",
];

export type WithheldReason = "provider" | "reinagent" | "deno" | "secret";

export interface EnvPolicy {
  /** Variables provider keys were read from (`--api-key-env`). */
  providerNames?: readonly string[];
  /** Stored provider keys: a variable holding one is withheld whatever its name. */
  secretValues?: readonly string[];
  /** Names let through although they look like secrets. */
  allow?: readonly string[];
}

export interface CommandEnv {
  env: Record<string, string>;
  withheld: { name: string; reason: WithheldReason }[];
}

/** Why `name=value` is withheld, or null when it is passed on. */
function reasonFor(
  name: string,
  value: string,
  p: EnvPolicy,
  values: ReadonlySet<string>,
): WithheldReason | null {
  const upper = name.toUpperCase();
  if ((p.providerNames ?? []).some((n) => n.toUpperCase() === upper)) return "provider";
  if (value.trim() && values.has(value.trim())) return "provider";
  if (upper.startsWith("REINAGENT_")) return "reinagent";
  if (DENO_CONTROL_VARS.includes(upper)) return "deno";
  if (SECRET_NAME_RE.test(name) && !(p.allow ?? []).some((n) => n.toUpperCase() === upper)) {
    return "secret";
  }
  return null;
}

/** The environment for a command, and what was withheld (names only, never values). */
export function commandEnv(base: Record<string, string>, policy: EnvPolicy = {}): CommandEnv {
  // Short values cannot be told from ordinary ones; real keys are long.
  const values = new Set(
    (policy.secretValues ?? []).map((v) => v.trim()).filter((v) => v.length >= 8),
  );
  const env: Record<string, string> = {};
  const withheld: CommandEnv["withheld"] = [];
  for (const [name, value] of Object.entries(base)) {
    const reason = reasonFor(name, value, policy, values);
    if (reason) withheld.push({ name, reason });
    else env[name] = value;
  }
  withheld.sort((a, b) => byCodeUnit(a.name, b.name));
  return { env, withheld };
}
