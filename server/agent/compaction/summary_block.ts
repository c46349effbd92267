/**
 * How a compaction's summary reaches the model: one text block at the start of the
 * conversation, in place of the messages it replaced (history.ts puts it there).
 */
import type { Entry } from "../../../protocol/index.ts";
import { compactMetaOf } from "../../../protocol/index.ts";

/** The summary text of a `compact` entry (its text parts). */
export const summaryOf = (e: Entry): string =>
  e.parts.map((p) => p.type === "text" ? p.text ?? "" : "").filter(Boolean).join("\n").trim();

/** The block the model reads instead of the compacted messages. */
export function summaryBlock(e: Entry): string {
  const m = compactMetaOf(e);
  const lines = [
    `<conversation-summary messages="${m?.count ?? 0}">`,
    "The earlier part of this conversation was compacted to save context. This summary replaces it; " +
    "details that are not in it are no longer visible (read files again when you need them).",
    "",
    summaryOf(e),
  ];
  if (m?.request) {
    lines.push(
      "",
      "The user's request being worked on, verbatim:",
      "<request>",
      m.request,
      "</request>",
    );
  }
  lines.push("</conversation-summary>");
  return lines.join("\n");
}
