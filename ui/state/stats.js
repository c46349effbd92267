/**
 * Session statistics of the shown task, live (see stats_model.js for the rules).
 */
import { computed } from "@preact/signals";
import { costOfEntries } from "./cost_model.js";
import { entries, entriesTotal, runState, serverNow } from "./timeline.js";
import { providerList } from "./models.js";
import { sessionStats } from "./stats_model.js";

export * from "./stats_model.js";

/** What the loaded replies of the open task cost (sums per currency, unpriced replies). */
export const currentCost = computed(() => costOfEntries(entries.value));

/** Stats of the shown task, live. */
export const currentStats = computed(() =>
  sessionStats(entries.value, {
    total: entriesTotal.value,
    providers: providerList.value,
    running: runState.value !== null,
    now: runState.value !== null ? serverNow() : undefined,
  })
);
