/**
 * Reads the hooks of a config file: the user's `<data dir>/config.json` or a workspace's
 * `.reinagent/config.json`. Two shapes are accepted, ReinAgent's list
 * (`hooks: [{event, matcher?, command, timeoutMs?}]`) and Claude Code's map
 * (`hooks: {PreToolUse: [{matcher, hooks: [{type: "command", command, timeout}]}]}`, timeout
 * in seconds), so a `.claude/settings.json` hooks block can be pasted as it is. A file with
 * any problem is reported whole and none of its hooks runs; the file is never written.
 */
import { join } from "../../../lib/path.ts";
import {
  HOOK_EVENTS,
  HOOK_LIMITS,
  type HookEvent,
  type HookView,
} from "../../../protocol/hooks.ts";

/** The workspace's hooks file. */
export const workspaceConfigPath = (workspace: string) =>
  join(workspace, ".reinagent", "config.json");
/** The user's hooks file. */
export const userConfigPath = (home: string) => join(home, "config.json");

/** Largest config file read. */
const MAX_FILE_BYTES = 1024 * 1024;

export type HookFile =
  | { ok: true; path: string; hooks: HookView[]; fingerprint: string }
  | { ok: false; path: string; error: string };

const isEvent = (x: unknown): x is HookEvent => HOOK_EVENTS.includes(x as HookEvent);
const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/** sha256 of the hooks as they will run (other keys of the file do not count). */
export async function fingerprintOf(hooks: HookView[]): Promise<string> {
  const canon = JSON.stringify(hooks.map((h) => [h.event, h.matcher, h.command, h.timeoutMs]));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canon));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Reads `path`; null when it does not exist or has no `hooks`. */
export async function readHookFile(path: string): Promise<HookFile | null> {
  let text: string;
  try {
    const st = Deno.statSync(path);
    if (!st.isFile) return { ok: false, path, error: "is not a file" };
    if (st.size > MAX_FILE_BYTES) {
      return { ok: false, path, error: `is larger than ${MAX_FILE_BYTES} bytes` };
    }
    // Asynchronous: a workspace's hook file is the model's to write (see readAgentsFile).
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    return { ok: false, path, error: `cannot be read: ${(e as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, path, error: `is not valid JSON: ${(e as Error).message}` };
  }
  if (!isRecord(json)) return { ok: false, path, error: "is not a JSON object" };
  if (json.hooks === undefined) return null;
  const parsed = parseHooks(json.hooks);
  if ("error" in parsed) return { ok: false, path, error: parsed.error };
  if (parsed.hooks.length === 0) return null;
  return { ok: true, path, hooks: parsed.hooks, fingerprint: await fingerprintOf(parsed.hooks) };
}

/** The `hooks` value of a config in either shape, or the first problem found. */
export function parseHooks(raw: unknown): { hooks: HookView[] } | { error: string } {
  const out: HookView[] = [];
  try {
    if (Array.isArray(raw)) {
      raw.forEach((h, i) => out.push(entry(h, `hooks[${i}]`)));
    } else if (isRecord(raw)) {
      for (const [event, groups] of Object.entries(raw)) {
        if (!isEvent(event)) throw new Error(`hooks.${event}: unknown event`);
        if (!Array.isArray(groups)) throw new Error(`hooks.${event}: expected a list`);
        groups.forEach((g, i) => {
          const at = `hooks.${event}[${i}]`;
          if (!isRecord(g) || !Array.isArray(g.hooks)) {
            throw new Error(`${at}: expected {hooks: [...]}`);
          }
          g.hooks.forEach((h, k) => {
            if (!isRecord(h)) throw new Error(`${at}.hooks[${k}]: expected an object`);
            out.push(entry({ ...h, event, matcher: g.matcher }, `${at}.hooks[${k}]`));
          });
        });
      }
    } else {
      throw new Error("hooks: expected a list or an object of events");
    }
  } catch (e) {
    return { error: (e as Error).message };
  }
  if (out.length > HOOK_LIMITS.perFile) {
    return { error: `hooks: more than ${HOOK_LIMITS.perFile} hooks` };
  }
  return { hooks: out };
}

function entry(h: unknown, at: string): HookView {
  if (!isRecord(h)) throw new Error(`${at}: expected an object`);
  if (!isEvent(h.event)) {
    throw new Error(`${at}.event: expected one of ${HOOK_EVENTS.join(", ")}`);
  }
  if (h.type !== undefined && h.type !== "command") {
    throw new Error(`${at}.type: only "command" hooks are supported`);
  }
  if (typeof h.command !== "string" || !h.command.trim()) {
    throw new Error(`${at}.command: expected a non-empty string`);
  }
  if (h.command.length > HOOK_LIMITS.commandChars) {
    throw new Error(`${at}.command: longer than ${HOOK_LIMITS.commandChars} characters`);
  }
  const matcher = h.matcher ?? "";
  if (typeof matcher !== "string" || matcher.length > HOOK_LIMITS.matcherChars) {
    throw new Error(`${at}.matcher: expected a string of at most ${HOOK_LIMITS.matcherChars}`);
  }
  try {
    matcherRegExp(matcher);
  } catch (e) {
    throw new Error(`${at}.matcher: ${(e as Error).message}`);
  }
  // `timeoutMs` (ours) or `timeout` in seconds (Claude Code's).
  const ms = h.timeoutMs ?? (typeof h.timeout === "number" ? h.timeout * 1000 : undefined);
  const timeoutMs = ms ?? HOOK_LIMITS.defaultTimeoutMs;
  if (
    typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs < 100 ||
    timeoutMs > HOOK_LIMITS.maxTimeoutMs
  ) {
    throw new Error(
      `${at}: timeout must be between 0.1 s and ${HOOK_LIMITS.maxTimeoutMs / 1000} s`,
    );
  }
  return { event: h.event, matcher, command: h.command, timeoutMs: Math.round(timeoutMs) };
}

/** A matcher as Claude Code reads it: empty or `*` = everything, else an anchored pattern. */
export function matcherRegExp(matcher: string): RegExp | null {
  const m = matcher.trim();
  if (m === "" || m === "*") return null;
  return new RegExp(`^(?:${m})$`);
}
