/** The pure parts of the soak benchmark (scripts/soak_stats.ts): slope and budget lines. */
import { assert, assertEquals } from "./helpers/assert.ts";
import { reportSoak, type RssSample, slopeMbPerMin } from "../scripts/soak_stats.ts";

const line = (mbPerMin: number, start: number, n: number, noise = 0): RssSample[] =>
  Array.from({ length: n }, (_, i) => ({
    ms: i * 1000,
    mb: start + (mbPerMin * i) / 60 + (i % 2 ? noise : -noise),
  }));

Deno.test("slopeMbPerMin: least squares in MB per minute, robust to a GC sawtooth", () => {
  assert(Math.abs(slopeMbPerMin(line(6, 100, 61)) - 6) < 1e-9);
  assert(Math.abs(slopeMbPerMin(line(0, 100, 61))) < 1e-9);
  assert(Math.abs(slopeMbPerMin(line(-3, 100, 61)) + 3) < 1e-9);
  // ±5 MB of alternating noise on a flat line leaves the slope near zero.
  assert(Math.abs(slopeMbPerMin(line(0, 100, 121, 5))) < 0.2);
  assert(Number.isNaN(slopeMbPerMin([{ ms: 0, mb: 1 }])));
  assert(Number.isNaN(slopeMbPerMin([{ ms: 5, mb: 1 }, { ms: 5, mb: 2 }])));
});

Deno.test("reportSoak: the slope counts only after warm-up; over budget says OVER", () => {
  // A steep warm-up (0 → 30 s) then flat: OK, because warm-up is left out.
  const warm = line(120, 60, 31);
  const flat = line(0, 120, 60).map((s) => ({ ms: s.ms + 31_000, mb: s.mb }));
  const run = {
    tasks: 50,
    steps: 2000,
    ms: 91_000,
    samples: [...warm, ...flat],
    warmupEndMs: 31_000,
    hwmMb: 140,
  };
  const ok = reportSoak(run);
  assertEquals(ok.length, 4);
  // Unpaced: shown, not judged (seconds of sawtooth); paced, the same samples are OK.
  assert(ok[1].endsWith(" not judged"), ok[1]);
  const okPaced = reportSoak({ ...run, paceMs: 150 });
  assert(okPaced[1].endsWith(" OK"), okPaced[1]);
  // Unpaced: the slope's 60 s are said to be sawtooth, with where the verdict is made.
  assert(ok[2].startsWith("  (unpaced: 59 s of the collector's sawtooth"), ok[2]);
  assert(ok[3].endsWith(" OK"), ok[3]);
  const leak = reportSoak({
    tasks: 50,
    steps: 2000,
    ms: 60_000,
    samples: line(5, 148, 61),
    warmupEndMs: 0,
    hwmMb: 0,
    paceMs: 150,
  });
  assert(leak[1].includes("5.00 MB/min") && leak[1].endsWith(" OVER"), leak[1]);
  assert(leak[2].endsWith(" OVER"), leak[2]); // 153 MB > 150 (paced: no unpaced hint line)
  // A spike between samples counts: the kernel's high-water mark is the peak.
  const spike = reportSoak({
    tasks: 1,
    steps: 40,
    ms: 60_000,
    samples: line(0, 100, 61),
    warmupEndMs: 0,
    hwmMb: 180,
  });
  assert(spike[3].startsWith("soak peak RSS: 180.0 MB") && spike[3].endsWith(" OVER"), spike[3]);
});

Deno.test("reportSoak: the heap after a full GC, per task after warm-up", () => {
  const lines = reportSoak({
    tasks: 50,
    steps: 2000,
    ms: 20_000,
    samples: line(0, 120, 21),
    warmupEndMs: 8_000,
    hwmMb: 130,
    heap: { warmMb: 18, endMb: 18.6, tasks: 30 },
  });
  assertEquals(
    lines[3],
    "soak heap after a full GC: 18.00 MB after warm-up → 18.60 MB 30 tasks later (+20.5 KB per task)",
  );
  assert(lines[4].startsWith("soak peak RSS"), lines[4]);
});

Deno.test("reportSoak: a paced soak says its pace; an unpaced one says nothing", () => {
  const run = { tasks: 50, steps: 2000, ms: 330_000, samples: line(0, 120, 21), warmupEndMs: 0 };
  assertEquals(
    reportSoak({ ...run, hwmMb: 130, paceMs: 150 })[0],
    "soak: 2000 tool steps over 50 tasks in 330 s, 21 RSS samples, paced: 150 ms per answer",
  );
  assertEquals(
    reportSoak({ ...run, hwmMb: 130, paceMs: 0 })[0],
    "soak: 2000 tool steps over 50 tasks in 330 s, 21 RSS samples",
  );
  assert(!reportSoak({ ...run, hwmMb: 130, paceMs: 150 }).some((l) => l.includes("unpaced")));
});

Deno.test("reportSoak: a paced soak's RSS after full collections has its own slope line", () => {
  const run = { tasks: 50, steps: 2000, ms: 330_000, samples: line(0, 120, 21), warmupEndMs: 0 };
  // Points every 30 s from warm-up's end: flat (a sawtooth between them does not count) …
  const flat = [110, 111, 109.5, 110.5, 110, 110.2, 110.1].map((mb, i) => ({ ms: i * 30_000, mb }));
  const ok = reportSoak({ ...run, hwmMb: 130, paceMs: 150, afterGc: flat });
  assert(ok[2].startsWith("soak RSS after full collections: "), ok[2]);
  assert(ok[2].includes("110.0 → 110.1 MB over 7 points") && ok[2].endsWith(" OK"), ok[2]);
  assert(ok.at(-1)!.includes("lowered by the forced collections"), ok.at(-1));
  // … and a real rise of 3 MB/min is OVER.
  const rising = flat.map((p) => ({ ms: p.ms, mb: 110 + (3 * p.ms) / 60_000 }));
  const leak = reportSoak({ ...run, hwmMb: 130, paceMs: 150, afterGc: rising });
  assert(leak[2].includes("3.00 MB/min") && leak[2].endsWith(" OVER"), leak[2]);
  // Too few points for a line: none printed.
  const few = reportSoak({ ...run, hwmMb: 130, paceMs: 150, afterGc: flat.slice(0, 2) });
  assert(!few.some((l) => l.includes("after full collections")), few.join("\n"));
});
