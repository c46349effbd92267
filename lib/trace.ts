/**
 * Timing marks for profiling start-up and turns: `REINAGENT_TRACE=1` prints each mark to
 * stderr as milliseconds since the process started. Off (one boolean test) otherwise.
 */
let on = false;
try {
  on = Deno.env.get("REINAGENT_TRACE") === "1";
} catch {
  // A worker without env access: marks stay off.
}

export function mark(label: string): void {
  if (on) console.error(`[trace] ${performance.now().toFixed(1).padStart(7)} ms  ${label}`);
}
