/**
 * Session statistics of the shown task, live (see stats_model.js for the rules).
 */
import { computed } from "@preact/signals";
import { entries, entriesTotal, runState, serverNow } from "./timeline.js";
import { providerList } from "./models.js";
import { sessionStats } from "./stats_model.js";

export * from "./stats_model.js";

/** Stats of the shown task, live. */
export const currentStats = computed(() =>
  sessionStats(entries.value, {
    total: entriesTotal.value,
    providers: providerList.value,
    running: runState.value !== null,
    now: runState.value !== null ? serverNow() : undefined,
  })
);
