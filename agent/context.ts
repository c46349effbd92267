/** What the loop asks of whoever keeps the conversation inside the context window. */
import type { LlmMessage, Usage } from "./providers/types.ts";

export interface ContextKeeper {
  /** Before a request: the conversation to send (compacted first when it had grown too big). */
  beforeRequest(messages: LlmMessage[], signal: AbortSignal): Promise<LlmMessage[]>;
  /** The provider's usage of the request just made. */
  noteUsage(usage: Usage): void;
  /** The request was refused as too long: the conversation after one compaction, or null. */
  onOverflow(signal: AbortSignal): Promise<LlmMessage[] | null>;
}
