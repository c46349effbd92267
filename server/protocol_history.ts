/**
 * Protocol ops for Timeline history: paging older entries, edit & resend, retry, branch (SPEC §3.8, §3.12).
 * Merged into `OP_ARGS` by `protocol.ts`; the UI imports it through `protocol.ts`.
 */
import type { Schema } from "./schema.ts";

export const HISTORY_OP_ARGS = {} satisfies Record<string, Schema>;

// deno-lint-ignore no-empty-interface
export interface HistoryOpResults {}
