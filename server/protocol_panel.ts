/**
 * Protocol ops for Right panel: file preview and diffs; about information (SPEC §7.14).
 * Merged into `OP_ARGS` by `protocol.ts`; the UI imports it through `protocol.ts`.
 */
import type { Schema } from "./schema.ts";

export const PANEL_OP_ARGS = {} satisfies Record<string, Schema>;

// deno-lint-ignore no-empty-interface
export interface PanelOpResults {}
