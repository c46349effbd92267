/**
 * What tools report beside their text: the structured details a tool result carries for
 * the UI's cards (never sent to the model). Shared by the tools that write them and the
 * UI that reads them.
 */

/** A problem a language server reports in a file. */
export interface Diagnostic {
  path: string;
  line: number;
  column: number;
  severity: "error" | "warning";
  message: string;
}
