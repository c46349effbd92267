/** POST a JSON body and return the SSE events, with errors mapped to ProviderError. */
import { goesDirect, netFetch } from "../../tools/net/proxy.ts";
import { http1Post, type Http1Response } from "../../tools/net/http1.ts";
import { abortedError, fromResponse, networkError, ProviderError } from "./errors.ts";
import { parseSse, type SseEvent } from "./sse.ts";
import { mark } from "../trace.ts";

const utf8 = new TextEncoder();

export async function* postSse(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
): AsyncGenerator<SseEvent> {
  let res: Response | Http1Response;
  mark(`http: POST ${url.slice(-24)}`);
  const all = { "content-type": "application/json", accept: "text/event-stream", ...headers };
  try {
    // Plain http straight to its host (a local model server): the light client; the rest
    // (https, proxies) through fetch.
    const target = new URL(url);
    res = target.protocol === "http:" && goesDirect(target)
      ? await http1Post(target, all, utf8.encode(JSON.stringify(body)), signal)
      : await netFetch(url, { method: "POST", headers: all, body: JSON.stringify(body), signal });
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
