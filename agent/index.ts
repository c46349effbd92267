/**
 * The agent: the loop that talks to a model and runs its tool calls, the provider
 * adapters, and the contract between the loop and the tools. It imports only
 * `protocol/`, `tools/`, `store/` types and `lib/`; the server composes it (storage,
 * clients, approvals, hooks). Start with `runLoop` in loop.ts.
 */
export { driveLoop, type LoopInput, runLoop } from "./loop.ts";
export type { AgentEvent, CutStop, LoopOutcome } from "./events.ts";
export { checkCall, type CheckedCall, type Gate, isChecked, type ToolCall } from "./tool_call.ts";
export { Answer, assistantMessage, type PartChange } from "./answer.ts";
export type { ContextKeeper } from "./context.ts";
export { type RunnerContext, ToolRunner } from "./tool_runner.ts";
export { FileTracker } from "./file_tracker.ts";
export { imagesOf, resultTextFor, toolImagesMessage } from "./tool_images.ts";
export { adapterFor, wireBody } from "./providers/index.ts";
export * from "./providers/types.ts";
export * from "./providers/errors.ts";
export {
  MAX_RETRIES,
  type RetryEvent,
  retrying,
  type RetryNotice,
  withRetry,
} from "./providers/retry.ts";
export * from "./providers/effort.ts";
export { sideText } from "./providers/side_text.ts";
export { normaliseBaseUrl, v1 } from "./providers/urls.ts";
export * from "./providers/dialects.ts";
export { asksForFile, demo, DEMO_MODEL, DEMO_PROVIDER, demoPlan } from "./providers/demo.ts";
