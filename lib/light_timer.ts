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

/**
 * A light timer that is pushed back instead of replaced: `touch()` moves its deadline
 * `ms` ahead, and the one pending timeout re-arms itself for what is left when it fires
 * early. A `lightTimer` cancelled and made anew on every use leaves each cancelled
 * timeout pending until its time (its signal and listener kept alive meanwhile): a
 * sandbox worker used ~100 times a second in the soak held ~6 000 of them.
 */
export class IdleTimer {
  private deadline = 0;
  private live = false;
  private armed = false;

  constructor(private ms: number, private fn: () => void) {}

  /** Fires `ms` from now (once), unless touched or cancelled before. */
  touch(): void {
    this.live = true;
    this.deadline = performance.now() + this.ms;
    if (!this.armed) this.arm(this.ms);
  }

  cancel(): void {
    this.live = false;
  }

  private arm(ms: number): void {
    this.armed = true;
    AbortSignal.timeout(Math.max(1, Math.ceil(ms))).addEventListener("abort", () => {
      this.armed = false;
      if (!this.live) return;
      const left = this.deadline - performance.now();
      if (left > 0) return this.arm(left);
      this.live = false;
      this.fn();
    }, { once: true });
  }
}
