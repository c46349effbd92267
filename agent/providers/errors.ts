/**
 * Provider errors with the raw chain (status, upstream message, URL) plus a category
 * badge and a friendly hint, and the retry decision.
 */

import type { ErrorCategory, ProviderErrorInfo } from "../../protocol/provider_types.ts";
export type { ErrorCategory, ProviderErrorInfo };

const HINTS: Record<ErrorCategory, string> = {
  auth: "The API key was rejected. Check the key in Settings → Providers.",
  balance: "The account has no credit or quota left. Top up or switch model.",
  "rate-limit": "The provider is rate-limiting requests. Wait a moment or switch model.",
  server: "The provider's server failed. This is usually temporary.",
  network: "Could not reach the provider. Check the base URL, your network or proxy.",
  timeout: "The provider did not answer in time.",
  request: "The provider rejected the request. Check the model id and settings.",
  aborted: "Stopped.",
  unknown: "An unexpected error occurred.",
};

export function categorise(
  status: number | null,
  network: boolean,
  timeout = false,
): ErrorCategory {
  if (timeout) return "timeout";
  if (network) return "network";
  if (status === null) return "unknown";
  if (status === 401 || status === 403) return "auth";
  if (status === 402) return "balance";
  if (status === 429) return "rate-limit";
  if (status === 408) return "timeout";
  if (status >= 500) return "server";
  if (status >= 400) return "request";
  return "unknown";
}

/** What is known of a failure besides its message; anything left out is unknown. */
export type ErrorFacts = Partial<Omit<ProviderErrorInfo, "message">>;

/**
 * A complete error record from a message and the facts known: status, URL and upstream
 * null unless given, the category from the status (or `network`), the category's hint,
 * and the message as the whole chain.
 *
 * @example
 * errorInfo("internal error: boom", { hint: "This is a bug." }); // category "unknown"
 */
export function errorInfo(
  message: string,
  facts: ErrorFacts = {},
  network = false,
): ProviderErrorInfo {
  const status = facts.status ?? null;
  const category = facts.category ?? categorise(status, network);
  return {
    category,
    message,
    status,
    url: facts.url ?? null,
    upstream: facts.upstream ?? null,
    hint: facts.hint ?? HINTS[category],
    chain: facts.chain ?? [message],
  };
}

export class ProviderError extends Error {
  readonly info: ProviderErrorInfo;
  /** `network`: the failure happened before any content arrived (retry is safe). */
  constructor(info: { message: string } & ErrorFacts, readonly network = false) {
    super(info.message);
    this.name = "ProviderError";
    this.info = errorInfo(info.message, info, network);
  }
}

/** Whether a failed attempt may be retried (before any content was streamed). */
export function isRetryable(e: unknown): boolean {
  if (!(e instanceof ProviderError)) return false;
  const { status, category } = e.info;
  if (category === "aborted") return false;
  if (e.network || category === "timeout") return true;
  // A network failure that is not worth another attempt (refused, unknown name).
  if (category === "network") return false;
  if (status === null) return false;
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status <= 599);
}

/** Builds a ProviderError from an HTTP response that was not OK. */
export async function fromResponse(
  res: Pick<Response, "status" | "statusText" | "text">,
  url: string,
): Promise<ProviderError> {
  let body = "";
  try {
    body = (await res.text()).trim();
  } catch (e) {
    body = `(body unreadable: ${(e as Error).message})`;
  }
  const upstream = extractMessage(body);
  return new ProviderError({
    message: `HTTP ${res.status}${upstream ? `: ${upstream}` : ""}`,
    status: res.status,
    url,
    upstream: body.slice(0, 4000) || null,
    chain: [`HTTP ${res.status} ${res.statusText} from ${url}`, ...(upstream ? [upstream] : [])],
  });
}

/** Pulls the human message out of common error JSON shapes. */
export function extractMessage(body: string): string {
  try {
    const j = JSON.parse(body);
    const m = j?.error?.message ?? j?.message ?? j?.error ?? j?.detail;
    if (typeof m === "string") return m;
  } catch { /* not JSON: use the text */ }
  return body.slice(0, 500);
}

/**
 * Failures that another attempt seconds later will meet again: nothing listens at the
 * address, or the name does not resolve. They fail at once with the reason (retrying
 * them only kept the user waiting for minutes).
 */
const UNREACHABLE =
  /connection refused|os error 111|econnrefused|failed to lookup address|name or service not known|nodename nor servname|no such host|dns error|os error -2/i;

/** Wraps a fetch/network failure (DNS, refused, reset). */
export function networkError(e: unknown, url: string): ProviderError {
  // fetch says only "fetch failed"; the reason (refused, DNS) is in its cause.
  const reasons: string[] = [];
  for (let x = e as { message?: string; cause?: unknown } | undefined; x && reasons.length < 4;) {
    reasons.push(x.message ?? String(x));
    x = x.cause as typeof x;
  }
  const msg = reasons.length > 1
    ? `${reasons[0]}: ${reasons.at(-1)!.replace(/^error sending request for url \([^)]*\): /, "")}`
    : reasons[0] ?? String(e);
  const unreachable = UNREACHABLE.test(msg);
  let host = url;
  try {
    host = new URL(url).host;
  } catch { /* not a URL: name it as given */ }
  return new ProviderError({
    message: `network error: ${msg}`,
    url,
    chain: [`request to ${url} failed`, msg],
    ...(unreachable
      ? {
        category: "network" as const,
        hint: /refused|111/i.test(msg)
          ? `Nothing answers at ${host}: is the model server running, and is the base URL right?`
          : `The name in ${host} does not resolve: check the base URL, your network or proxy.`,
      }
      : {}),
  }, !unreachable);
}

/**
 * The stream ended cleanly but without the format's end marker (`missing`): a proxy or
 * server cut it. Network-like, so it is retried when nothing was streamed yet.
 */
export function truncatedError(url: string, missing: string): ProviderError {
  const message = `the provider's stream ended before it finished (no ${missing})`;
  return new ProviderError({
    category: "network",
    message,
    url,
    hint:
      "The connection closed before the answer was complete (often a proxy or gateway timeout). What arrived is kept; Retry to continue.",
    chain: [`stream from ${url} ended early`, message],
  }, true);
}

export function abortedError(): ProviderError {
  return new ProviderError({ category: "aborted", message: "stopped by user" });
}

/**
 * Whether a provider refused a request because the prompt is longer than the model's
 * context window — in any wire format's words (OpenAI `context_length_exceeded`,
 * Anthropic "prompt is too long", Gemini "exceeds the maximum number of tokens", and
 * the phrasings of compatible servers). Answered by one compaction and a retry.
 */
export function isContextOverflow(info: ProviderErrorInfo): boolean {
  if (info.status !== null && info.status !== 400 && info.status !== 413) return false;
  const text = [info.message, info.upstream ?? "", ...info.chain].join("\n");
  return CONTEXT_OVERFLOW_RE.test(text);
}

const CONTEXT_OVERFLOW_RE = new RegExp(
  [
    "context[_ ]length[_ ]exceeded",
    "maximum context length",
    "exceeds? (the |this model's |the model's )?context( window| length| size)?",
    "context (window|length|size) (is |has been )?exceeded",
    "prompt is too long",
    "input is too long",
    "too many (input |prompt )?tokens",
    "input token count.*exceeds",
    "exceeds the maximum (number of )?tokens",
    "reduce the length of the (messages|prompt|input)",
    "request too large for model",
  ].join("|"),
  "i",
);

/** The info with every occurrence of `secret` replaced by `masked` (keys echoed back). */
export function scrubInfo(
  info: ProviderErrorInfo,
  secret: string,
  masked: string,
): ProviderErrorInfo {
  if (!secret) return info;
  const s = <T extends string | null>(t: T): T =>
    (typeof t === "string" ? t.split(secret).join(masked) : t) as T;
  return {
    ...info,
    message: s(info.message),
    url: s(info.url),
    upstream: s(info.upstream),
    chain: info.chain.map((c) => s(c)),
  };
}

/** The same error with the secrets it may echo (the request's key) masked everywhere. */
export function scrubbedError(
  e: ProviderError,
  secrets: { secret: string; masked: string }[],
): ProviderError {
  let info = e.info;
  for (const x of secrets) info = scrubInfo(info, x.secret, x.masked);
  if (info === e.info) return e;
  return new ProviderError(info, e.network);
}
