/**
 * Retry policy: connection errors and 408/409/429/5xx/52x are retried up
 * to 10 times with backoff 200 ms·2^(n-1)·U(0.9,1.1), capped at 30 s; never after
 * content was streamed; 400/401/402 never. Stop during backoff stops at once.
 */
import { abortedError, isRetryable, ProviderError } from "./errors.ts";
import type { StreamEvent } from "./types.ts";

export const MAX_RETRIES = 10;
const CAP_MS = 30_000;

export interface RetryNotice {
  attempt: number;
  max: number;
  delayMs: number;
  error: ProviderError;
}

export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const jitter = 0.9 + random() * 0.2;
  return Math.min(CAP_MS, 200 * 2 ** (attempt - 1) * jitter);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortedError());
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortedError());
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** A retry is due: the stream's events that follow are the next attempt's. */
export interface RetryEvent {
  type: "retry";
  notice: RetryNotice;
}

/**
 * Runs `open()` and yields its events; a retryable failure before the first event
 * starts a new attempt after a backoff, announced by a `retry` event before the wait.
 */
export async function* retrying(
  open: () => AsyncIterable<StreamEvent>,
  signal: AbortSignal,
  opts: { max?: number; random?: () => number } = {},
): AsyncGenerator<StreamEvent | RetryEvent> {
  const max = opts.max ?? MAX_RETRIES;
  for (let attempt = 0;; attempt++) {
    let streamed = false;
    try {
      for await (const ev of open()) {
        streamed = true;
        yield ev;
      }
      return;
    } catch (e) {
      if (signal.aborted) throw abortedError();
      if (streamed || attempt >= max || !isRetryable(e)) throw e;
      const delayMs = backoffMs(attempt + 1, opts.random);
      yield {
        type: "retry",
        notice: { attempt: attempt + 1, max, delayMs, error: e as ProviderError },
      };
      await sleep(delayMs, signal);
    }
  }
}

/** `retrying`, with the retries reported through `onRetry` instead of the stream. */
export async function* withRetry(
  open: () => AsyncIterable<StreamEvent>,
  signal: AbortSignal,
  onRetry: (n: RetryNotice) => void,
  opts: { max?: number; random?: () => number } = {},
): AsyncGenerator<StreamEvent> {
  for await (const ev of retrying(open, signal, opts)) {
    if (ev.type === "retry") onRetry(ev.notice);
    else yield ev;
  }
}
