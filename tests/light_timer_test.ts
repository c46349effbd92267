import { assertEquals } from "./helpers/assert.ts";
import { IdleTimer } from "../lib/light_timer.ts";

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

Deno.test("IdleTimer: fires once, its time after the last touch", async () => {
  const fired: number[] = [];
  const t0 = performance.now();
  const timer = new IdleTimer(60, () => fired.push(performance.now() - t0));
  timer.touch();
  await sleep(40);
  timer.touch(); // pushed back: due at ~100 ms, not 60
  await sleep(40);
  assertEquals(fired.length, 0, "not at its first deadline");
  for (let i = 0; i < 50 && !fired.length; i++) await sleep(10);
  assertEquals(fired.length, 1);
  if (fired[0] < 95) {
    throw new Error(`fired at ${fired[0].toFixed(0)} ms, before the last touch's time`);
  }
  await sleep(100);
  assertEquals(fired.length, 1, "once");
});

Deno.test("IdleTimer: a cancel stops it; a touch after a cancel starts it again", async () => {
  let fired = 0;
  const timer = new IdleTimer(30, () => fired++);
  timer.touch();
  timer.cancel();
  await sleep(80);
  assertEquals(fired, 0);
  timer.touch();
  timer.cancel();
  timer.touch(); // while the first timeout is still pending
  for (let i = 0; i < 30 && !fired; i++) await sleep(10);
  await sleep(50);
  assertEquals(fired, 1);
});
