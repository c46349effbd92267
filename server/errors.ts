/** An error with a protocol error code, answered to the client as-is. */
import type { ErrorCode } from "../protocol/index.ts";

export class OpError extends Error {
  constructor(readonly code: ErrorCode, message: string) {
    super(message);
    this.name = "OpError";
  }
}
