/**
 * Protocol ops for providers, models and system settings (SPEC §2.3–2.5). Merged into
 * `OP_ARGS` by `protocol.ts`; the UI imports it through `protocol.ts`.
 */
import type { Schema } from "./schema.ts";

export const PROVIDER_OP_ARGS = {} satisfies Record<string, Schema>;

// deno-lint-ignore ban-types
export type ProviderOpResults = {};
