/** Maps `npm:openai` SDK errors onto ProviderError. */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { abortedError, extractMessage, networkError, ProviderError } from "./errors.ts";

export function fromSdkError(e: unknown, url: string, signal: AbortSignal): ProviderError {
  if (e instanceof ProviderError) return e;
  if (signal.aborted || e instanceof APIUserAbortError) return abortedError();
  if (e instanceof APIConnectionTimeoutError) {
    return new ProviderError({
      category: "timeout",
      message: "request timed out",
      url,
      chain: [e.message],
    }, true);
  }
  if (e instanceof APIConnectionError) {
    const cause = (e as { cause?: Error }).cause?.message;
    return networkError(new Error(cause ? `${e.message} (${cause})` : e.message), url);
  }
  if (e instanceof APIError && typeof e.status === "number") {
    const upstream = e.error ? JSON.stringify(e.error) : null;
    const msg = upstream ? extractMessage(upstream) : e.message;
    return new ProviderError({
      message: `HTTP ${e.status}: ${msg}`,
      status: e.status,
      url,
      upstream,
      chain: [`HTTP ${e.status} from ${url}`, msg],
    });
  }
  const msg = (e as Error)?.message ?? String(e);
  if (!(e instanceof SyntaxError)) return networkError(e, url); // e.g. the body stream broke
  return new ProviderError({
    category: "server",
    message: `malformed response from provider: ${msg}`,
    url,
    chain: [msg],
  });
}
