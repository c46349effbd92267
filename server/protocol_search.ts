/**
 * Protocol ops for Search across tasks (FTS5), session stats and context usage (SPEC §3.11, §6.5, §7.11).
 * Merged into `OP_ARGS` by `protocol.ts`; the UI imports it through `protocol.ts`.
 */
import type { Schema } from "./schema.ts";

export const SEARCH_OP_ARGS = {} satisfies Record<string, Schema>;

// deno-lint-ignore no-empty-interface
export interface SearchOpResults {}
