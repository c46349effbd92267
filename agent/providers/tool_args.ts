/** Accumulates streamed tool-call argument text and parses it once complete. */

export interface PendingCall {
  index: number;
  id: string;
  name: string;
  json: string;
}

export function parseArgs(json: string): { args: Record<string, unknown>; argsError?: string } {
  const text = json.trim();
  if (text === "") return { args: {} };
  try {
    const v = JSON.parse(text);
    if (typeof v === "object" && v !== null && !Array.isArray(v)) return { args: v };
    return {
      args: {},
      argsError: `arguments must be a JSON object, got ${Array.isArray(v) ? "array" : typeof v}`,
    };
  } catch (e) {
    return {
      args: {},
      argsError: `arguments are not valid JSON (${(e as Error).message}): ${text.slice(0, 200)}`,
    };
  }
}

/** The finished `tool_call` event of a pending call. */
export function finishCall(c: PendingCall) {
  return {
    type: "tool_call" as const,
    index: c.index,
    id: c.id,
    name: c.name,
    ...parseArgs(c.json),
  };
}
