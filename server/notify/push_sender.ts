/**
 * Sends one Web Push message: encrypts the payload for the subscription (RFC 8291),
 * signs the request with VAPID (RFC 8292) and POSTs it to the push service. Never
 * follows redirects, reads at most a short error text, gives up after 10 s.
 */
import { netFetch } from "../../tools/net/proxy.ts";
import { encryptPayload } from "./ece.ts";
import { vapidAuthorization, type VapidKeys } from "./vapid.ts";

const TIMEOUT_MS = 10_000;
/** How long the push service keeps an undelivered message (a day: later is stale). */
const TTL_S = 24 * 3600;

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushResult {
  ok: boolean;
  status: number;
  /** The push service says the subscription is gone (404/410): drop it. */
  gone: boolean;
  error?: string;
}

/**
 * Whether the server may POST to `endpoint`: https only; plain http just for loopback
 * when `REINAGENT_PUSH_ALLOW_HTTP=1` (a local push service in tests).
 */
export function endpointProblem(endpoint: string): string | null {
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    return "endpoint is not a URL";
  }
  if (u.username || u.password) return "endpoint must not carry credentials";
  if (u.protocol === "https:") return null;
  const loopback = u.hostname === "127.0.0.1" || u.hostname === "localhost" ||
    u.hostname === "[::1]";
  if (u.protocol === "http:" && loopback && Deno.env.get("REINAGENT_PUSH_ALLOW_HTTP") === "1") {
    return null;
  }
  return "endpoint must be an https:// push service URL";
}

export async function sendPush(
  keys: VapidKeys,
  target: PushTarget,
  payload: unknown,
  urgency: "high" | "normal" = "normal",
  fetchImpl: typeof fetch = netFetch,
): Promise<PushResult> {
  const problem = endpointProblem(target.endpoint);
  if (problem) return { ok: false, status: 0, gone: false, error: problem };
  try {
    const body = await encryptPayload(
      target.p256dh,
      target.auth,
      new TextEncoder().encode(JSON.stringify(payload)),
    );
    const res = await fetchImpl(target.endpoint, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: {
        authorization: await vapidAuthorization(keys, target.endpoint),
        "content-encoding": "aes128gcm",
        "content-type": "application/octet-stream",
        ttl: String(TTL_S),
        urgency,
      },
      body,
    });
    const ok = res.status >= 200 && res.status < 300;
    const text = ok ? "" : (await res.text().catch(() => "")).slice(0, 300);
    if (ok) await res.body?.cancel();
    return {
      ok,
      status: res.status,
      gone: res.status === 404 || res.status === 410,
      ...(ok ? {} : { error: `push service answered ${res.status} ${text}`.trim() }),
    };
  } catch (e) {
    return { ok: false, status: 0, gone: false, error: (e as Error).message };
  }
}
