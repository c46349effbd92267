/** POST a JSON body and return the SSE events, with errors mapped to ProviderError. */
import { netFetch } from "../../tools/net/proxy.ts";
import { abortedError, fromResponse, networkError, ProviderError } from "./errors.ts";
import { parseSse, type SseEvent } from "./sse.ts";
import { mark } from "../../lib/trace.ts";

export async function* postSse(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
): AsyncGenerator<SseEvent> {
  let res: Response;
  mark(`http: POST ${url.slice(-24)}`);
  const all = { "content-type": "application/json", accept: "text/event-stream", ...headers };
  try {
    res = await netFetch(url, { method: "POST", headers: all, body: JSON.stringify(body), signal });
  } catch (e) {
    if (signal.aborted) throw abortedError();
    throw networkError(e, url);
  }
  mark("http: headers");
  if (res.status < 200 || res.status > 299) throw await fromResponse(res, url);
  if (!res.body) {
    throw new ProviderError({
      category: "server",
      message: "empty response body",
      status: res.status,
      url,
      chain: ["empty body"],
    });
  }
  try {
    yield* parseSse(res.body);
  } catch (e) {
    if (signal.aborted) throw abortedError();
    if (e instanceof ProviderError) throw e;
    throw networkError(e, url);
  }
}

/** Parses one SSE data payload as JSON, or fails with a clear provider error. */
export function sseJson(data: string, url: string): Record<string, unknown> {
  try {
    return JSON.parse(data);
  } catch {
    throw new ProviderError({
      category: "server",
      message: `malformed stream data from provider: ${data.slice(0, 120)}`,
      url,
      upstream: data.slice(0, 4000),
      chain: ["malformed SSE data"],
    });
  }
}
