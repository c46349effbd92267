/** `reinagent mcp serve` arguments (parsed before anything of the command loads). */
import { parseFlags } from "./flags.ts";

export interface McpServeArgs {
  home?: string;
}

export function parseMcpServeArgs(argv: string[]): McpServeArgs | { error: string } {
  const f = parseFlags(argv, { values: ["--home"] });
  if ("error" in f) return f;
  if (f.positional.length) {
    return { error: `mcp serve takes no arguments, got "${f.positional[0]}"` };
  }
  return f.values["--home"] ? { home: f.values["--home"] } : {};
}
