/**
 * The shown task's todo list: what its latest successful `todo_write`
 * recorded, for the progress capsule above the composer.
 */
import { computed } from "@preact/signals";
import { latestTodos } from "./interact_model.js";
import { entries } from "./tasks.js";

/** @type {import("@preact/signals").ReadonlySignal<import("./interact_model.js").TodoProgress|null>} */
export const currentTodos = computed(() => latestTodos(entries.value));
