/**
 * Secrets in MCP server configs (`env` values and `headers` such as Authorization) are
 * shown masked, like provider keys: the MCP page, `reinagent mcp list` and every
 * client get "••••abcd". A masked value sent back unchanged (an edit that did not
 * touch it) keeps the stored secret.
 */
import type { McpServerConfig } from "../../protocol/mcp_servers.ts";
import { SECRET_NAME_RE } from "../../tools/exec/env_policy.ts";

const DOTS = "••••";
const SECRET_HEADER_RE = /^(authorization|proxy-authorization|cookie)$|key|token|secret/i;

/** "••••" plus the last 4 characters of a long value. */
export const mask = (v: string) => DOTS + (v.length >= 12 ? v.slice(-4) : "");

function maskMap(
  m: Record<string, string> | undefined,
  secret: (name: string) => boolean,
): Record<string, string> | undefined {
  if (!m) return m;
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, secret(k) ? mask(v) : v]));
}

const secretEnv = (name: string) => SECRET_NAME_RE.test(name);
const secretHeader = (name: string) => SECRET_HEADER_RE.test(name);

/** The config as clients see it: secret-looking values masked. */
export function masked(s: McpServerConfig): McpServerConfig {
  const out = { ...s };
  if (s.env) out.env = maskMap(s.env, secretEnv);
  if (s.headers) out.headers = maskMap(s.headers, secretHeader);
  if (s.oauth?.clientSecret) out.oauth = { ...s.oauth, clientSecret: mask(s.oauth.clientSecret) };
  return out;
}

function restoreMap(
  sent: Record<string, string> | undefined,
  stored: Record<string, string> | undefined,
): Record<string, string> | undefined {
  if (!sent) return sent;
  return Object.fromEntries(
    Object.entries(sent).map(([k, v]) => {
      const old = stored?.[k];
      return [k, old !== undefined && v.startsWith(DOTS) && v === mask(old) ? old : v];
    }),
  );
}

/** A config sent back by a client: masked values it did not change become the stored ones. */
export function unmasked(
  sent: McpServerConfig,
  stored: McpServerConfig | undefined,
): McpServerConfig {
  if (!stored) return sent;
  const out = { ...sent };
  if (sent.env) out.env = restoreMap(sent.env, stored.env);
  if (sent.headers) out.headers = restoreMap(sent.headers, stored.headers);
  const secret = sent.oauth?.clientSecret, old = stored.oauth?.clientSecret;
  if (secret && old && secret.startsWith(DOTS) && secret === mask(old)) {
    out.oauth = { ...sent.oauth, clientSecret: old };
  }
  return out;
}
