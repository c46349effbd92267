/** Argument schemas several tools share (tool arguments have no length bound of their own). */
import { doc, type Schema, str } from "../protocol/schema.ts";

/** Any string, with a description for the model when given. */
export function text(description?: string): Schema<string> {
  const s = str({ max: Infinity });
  return description ? doc(s, description) : s;
}

/** The file a file tool works on. */
export const filePath = text("File path (relative to the workspace root or absolute)");
