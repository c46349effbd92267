/**
 * Protocol ops for Projects (user-added folders), the server-side folder browser and sidebar layout (SPEC §3.1, §3.4).
 * Merged into `OP_ARGS` by `protocol.ts`; the UI imports it through `protocol.ts`.
 */
import type { Schema } from "./schema.ts";

export const PROJECT_OP_ARGS = {} satisfies Record<string, Schema>;

// deno-lint-ignore no-empty-interface
export interface ProjectOpResults {}
