/**
 * A cancellable one-shot timer that does not load Node's timers. In Deno 2.9 the global
 * `setTimeout`/`clearTimeout` are Node's, and the first call of either in a process costs
 * ~15 ms and ~3 MB — for a headless run, right while its first answer streams.
 * `AbortSignal.timeout` runs on Deno's own timers. It does not keep the process alive,
 * so it suits housekeeping (closing an idle worker), not work that must happen.
 */
export interface LightTimer {
  cancel(): void;
}

export function lightTimer(ms: number, fn: () => void): LightTimer {
  let live = true;
  AbortSignal.timeout(ms).addEventListener("abort", () => {
    if (live) fn();
  }, { once: true });
  return {
    cancel() {
      live = false;
    },
  };
}
