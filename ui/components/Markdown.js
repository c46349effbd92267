/**
 * Assistant text as sanitised GitHub-flavoured Markdown (see ui/markdown/). Blocks are
 * parsed on each change (cheap) and rendered lazily: unchanged blocks are skipped.
 */
import { useMemo } from "preact/hooks";
import { html } from "../html.js";
import { parseBlocks } from "../markdown/parse.js";
import { MarkdownBlock } from "./MarkdownBlock.js";

/** @param {{text: string}} props */
export function Markdown({ text }) {
  const blocks = useMemo(() => parseBlocks(text), [text]);
  return html`
    <div class="md">
      ${blocks.map((b, i) => html`<${MarkdownBlock} key=${i} block=${b} />`)}
    </div>
  `;
}
