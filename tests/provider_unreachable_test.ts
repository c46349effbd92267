/**
 * A provider nobody answers for (connection refused, a name that does not resolve)
 * fails at once with the reason; only failures worth another attempt are retried.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { postSse } from "../agent/providers/http_stream.ts";
import { isRetryable, networkError } from "../agent/providers/errors.ts";
import { type RetryNotice, withRetry } from "../agent/providers/retry.ts";
import type { StreamEvent } from "../agent/providers/types.ts";

/** A port that was free a moment ago: nothing listens there. */
function closedPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

for (
  const [name, url] of [
    [
      "plain http (a local model server)",
      () => `http://127.0.0.1:${closedPort()}/v1/chat/completions`,
    ],
    ["a name that does not resolve", () => "http://no-such-host.invalid/v1/chat/completions"],
  ] as const
) {
  Deno.test(`unreachable provider, ${name}: no retry, the reason said`, async () => {
    const retries: RetryNotice[] = [];
    const signal = new AbortController().signal;
    // The adapters' events do not matter here: the request fails before any.
    const open = async function* (): AsyncGenerator<StreamEvent> {
      for await (const _ of postSse(url(), {}, { model: "m" }, signal)) {
        yield { type: "text", delta: "" };
      }
    };
    let err: Error | null = null;
    try {
      for await (const _ of withRetry(open, signal, (n) => retries.push(n))) { /* none */ }
    } catch (e) {
      err = e as Error;
    }
    assertEquals(retries.length, 0, "failed at the first attempt");
    assert(err, "it failed");
    assertMatch(err.message, /refused|resolve|lookup|not known/i);
  });
}

Deno.test("a dropped connection is still worth another attempt", () => {
  assert(isRetryable(networkError(new Error("connection reset by peer"), "http://x/v1")));
  const refused = networkError(
    Object.assign(new TypeError("fetch failed"), {
      cause: new Error("tcp connect error: Connection refused (os error 111)"),
    }),
    "http://127.0.0.1:9/v1",
  );
  assertEquals(isRetryable(refused), false);
  assertMatch(refused.info.hint, /Nothing answers at 127\.0\.0\.1:9/);
});
