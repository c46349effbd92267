/**
 * Output bombs stay bounded: a command printing 200 MB through the real server keeps
 * head + tail and the server's memory barely moves (the output is kept as bytes in
 * fixed buffers, read into one reused buffer, decoded only where it is kept).
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { BOMB_BYTES, measureExecRss } from "../scripts/bench_exec.ts";
import { HEAD_BYTES, TAIL_BYTES } from "../tools/exec/output.ts";

// The budget is 20 MB. Decoding every chunk into a string (the old capture) grew the
// server by 18–54 MB here, this one by 8–11 MB (the rest is Deno's own garbage per
// pipe read); 15 MB keeps the test meaningful on both sides.
const BOUND_MB = 15;

Deno.test({
  name: "a command printing 200 MB keeps head + tail and the server's RSS rises < 15 MB",
  ignore: Deno.build.os !== "linux", // reads /proc/<pid>/status
  async fn() {
    const r = await measureExecRss();
    const text = String(r.result.parts[0]?.text ?? "");
    const meta = r.result.parts[0]?.data?.meta as Record<string, unknown>;
    assertEquals(meta.totalBytes, BOMB_BYTES);
    assertEquals(meta.truncated, true);
    // `yes` prints "y\n": the head is whole lines, the tail starts after its first break.
    const head = HEAD_BYTES / 2, tail = TAIL_BYTES / 2 - 1;
    const omitted = BOMB_BYTES - 2 * head - 2 * tail;
    const m = text.match(/^((?:y\n)*)\[… (\d+) bytes omitted …\]\n((?:y\n)*y)\n\nExit code: 0$/);
    assert(m, `head + marker + tail: ${text.slice(0, 80)} … ${text.slice(-80)}`);
    assertEquals(m[1].length, 2 * head);
    assertEquals(Number(m[2]), omitted);
    assertEquals(m[3].length + 1, 2 * tail);
    assert(
      r.growthMb < BOUND_MB,
      `server RSS rose ${r.growthMb.toFixed(1)} MB (from ${r.beforeMb.toFixed(1)} MB)`,
    );
  },
});
