/**
 * `diagnostics`: what the language servers report for some files now (errors and
 * warnings), e.g. before finishing a change. The servers run in the main process's
 * language-server manager, handed to the call in its context (`diagnose`); each path
 * is confined like the other file tools'.
 */
import { fail, ok } from "./types.ts";
import type { Diagnostic } from "../protocol/tool_details.ts";
import { defineTool } from "./define.ts";
import type { ToolDetails } from "../protocol/tool_details.ts";
import { arr, doc, obj } from "../protocol/schema.ts";
import { text } from "./args.ts";
import { hiddenPath, toolPath } from "./paths.ts";

export const diagnosticsTool = defineTool<{ paths: string[] }, ToolDetails<"diagnostics">>({
  name: "diagnostics",
  description: "Errors and warnings the language server reports for files (TypeScript/" +
    "JavaScript and Python), e.g. to check a change before finishing. At most 20 files.",
  args: obj({ paths: doc(arr(text(), 20, { min: 1 }), "Files to check") }),
  kind: "read",
  placement: "main",
  async execute(args, ctx) {
    const diagnose = ctx.diagnose;
    if (!diagnose) return fail("No language server is available in this session.");
    const abs: string[] = [];
    for (const p of args.paths) {
      const t = toolPath("diagnostics", p, ctx);
      if ("error" in t) return fail(t.error);
      const hidden = hiddenPath(t.abs, ctx.hidden ?? [], ctx.roots ?? [ctx.workspace]);
      if (hidden) return fail(hidden);
      abs.push(t.abs);
    }
    const found = await diagnose(abs);
    if (!found.length) {
      return ok(`No problems reported for ${args.paths.length} file(s).`, { diagnostics: [] });
    }
    const lines = found.slice(0, 50).map((d) =>
      `${d.path}:${d.line}:${d.column} ${d.severity}: ${d.message.slice(0, 300)}`
    );
    const more = found.length > 50 ? `\n(and ${found.length - 50} more)` : "";
    return ok(`${found.length} problem(s):\n${lines.join("\n")}${more}`, {
      diagnostics: found.slice(0, 50),
    });
  },
});

/** Diagnostics as the text appended to a tool result that changed files (bounded). */
export function diagnosticsText(list: Diagnostic[], max = 20): string {
  if (!list.length) return "";
  const lines = list.slice(0, max).map((d) =>
    `${d.path}:${d.line}:${d.column} ${d.severity}: ${d.message.slice(0, 300)}`
  );
  const more = list.length > max ? `\n(and ${list.length - max} more)` : "";
  return `\n\nThe language server reports ${list.length} problem${
    list.length === 1 ? "" : "s"
  } after this change:\n${lines.join("\n")}${more}`;
}
