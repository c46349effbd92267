/**
 * Protocol ops for Composer: attachments, prompt history, drafts and the steering queue (SPEC §3.10, §7.2).
 * Merged into `OP_ARGS` by `protocol.ts`; the UI imports it through `protocol.ts`.
 */
import type { Schema } from "./schema.ts";

export const COMPOSER_OP_ARGS = {} satisfies Record<string, Schema>;

// deno-lint-ignore no-empty-interface
export interface ComposerOpResults {}
