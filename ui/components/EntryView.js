/**
 * One assistant entry inside a turn's process: its parts in production order —
 * thinking blocks, intermediate text (Markdown), tool-call cards with their results.
 * Re-renders only when the entry, its shown parts, its results or `live` change.
 *
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 * @typedef {import("../../protocol/index.ts").Part} Part
 * @typedef {{entry: Entry, parts: number[], results: Record<string, Entry>, live: boolean,
 *   lang: string}} Props
 */
import { Component } from "preact";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { Markdown } from "./Markdown.js";
import { ThinkingBlock } from "./ThinkingBlock.js";
import { ToolCard } from "./tools/ToolCard.js";

/**
 * @param {unknown[]} a
 * @param {unknown[]} b
 */
const sameList = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * @param {Record<string, unknown>} a
 * @param {Record<string, unknown>} b
 */
function sameRecord(a, b) {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** @extends {Component<Props>} */
export class EntryView extends Component {
  /**
   * @override
   * @param {Props} n
   */
  shouldComponentUpdate(n) {
    const p = this.props;
    return n.entry !== p.entry || n.live !== p.live || n.lang !== p.lang ||
      !sameList(n.parts, p.parts) || !sameRecord(n.results, p.results);
  }

  /**
   * @param {Part} part
   * @param {number} index
   */
  part(part, index) {
    const { entry, results, live } = this.props;
    const data = part.data ?? {};
    switch (part.type) {
      case "text":
        return html`
          <div class="part-md">
            <${Markdown} text=${part.text ?? ""} />
          </div>
        `;
      case "thinking":
        return html`
          <${ThinkingBlock}
            part=${part}
            live=${live && entry.status === "streaming" && index === entry.parts.length - 1}
          />
        `;
      case "tool_call":
        return html`
          <${ToolCard} part=${part} result=${results[String(data.id ?? "")]} live=${live} />
        `;
      case "image":
        return html`<div class="part-chip">${t("part.image")}</div>`;
      case "file":
        return html`<div class="part-chip">${
          t("part.file", { name: String(data.name ?? data.path ?? "?") })
        }</div>`;
      default:
        return part.text ? html`<div class="part-text">${part.text}</div>` : null;
    }
  }

  render() {
    const { entry, parts } = this.props;
    return html`
      <div
        class="entry entry-assistant process-entry"
        data-testid="entry"
        data-role=${entry.role}
        data-entry-id=${entry.id}
        data-status=${entry.status}
      >
        ${parts.map((i) => this.part(entry.parts[i], i))}
        ${entry.status === "streaming" &&
          html`
            <span class="stream-mark" data-testid="streaming" title=${t("turn.writing")}>
              <span class="pulse" aria-hidden="true"></span>
              <span class="sr-only">${t("turn.writing")}</span>
            </span>
          `}
      </div>
    `;
  }
}
