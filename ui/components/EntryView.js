/**
 * One timeline entry: user messages as right-aligned bubbles, other roles as blocks.
 * Text is shown as plain text (white-space: pre-wrap) until Markdown rendering lands.
 * Re-renders only when its entry object or the language changes.
 *
 * @typedef {import("../../server/protocol.ts").Entry} Entry
 * @typedef {import("../../server/protocol.ts").Part} Part
 */
import { Component } from "preact";
import { html } from "../html.js";
import { t } from "../i18n/index.js";

/** @param {unknown} v */
function str(v) {
  return typeof v === "string" ? v : "";
}

/** @param {{part: Part}} props */
function PartView({ part }) {
  const data = part.data ?? {};
  switch (part.type) {
    case "text":
      return html`<div class="part-text">${part.text ?? ""}</div>`;
    case "thinking":
      return html`
        <details class="part-fold">
          <summary>${t("part.thinking")}</summary>
          <div class="part-text part-muted">${part.text ?? ""}</div>
        </details>
      `;
    case "tool_call":
      return html`
        <details class="part-fold part-tool">
          <summary>${t("part.toolCall", { name: str(data.name) || "?" })}</summary>
          <pre class="part-pre">${part.text ?? JSON.stringify(data.args ?? data, null, 2)}</pre>
        </details>
      `;
    case "tool_result":
      return html`
        <details class="part-fold part-tool">
          <summary>${t("part.toolResult")}</summary>
          <pre class="part-pre">${part.text ?? ""}</pre>
        </details>
      `;
    case "image":
      return html`<div class="part-chip">${t("part.image")}${
        str(data.name) ? `: ${str(data.name)}` : ""
      }</div>`;
    case "file":
      return html`<div class="part-chip">${
        t("part.file", { name: str(data.name) || str(data.path) || "?" })
      }</div>`;
    default:
      return part.text ? html`<div class="part-text">${part.text}</div>` : null;
  }
}

/** @param {{status: Entry["status"]}} props */
function StatusLine({ status }) {
  if (status === "streaming") {
    return html`<div class="entry-status" data-testid="streaming">
      <span class="pulse" aria-hidden="true"></span>${t("timeline.streaming")}
    </div>`;
  }
  if (status === "stopped") return html`<div class="entry-status">${t("timeline.stopped")}</div>`;
  if (status === "error") {
    return html`<div class="entry-status entry-status-error">${t("timeline.failed")}</div>`;
  }
  return null;
}

/** @extends {Component<{entry: Entry, lang: string}>} */
export class EntryView extends Component {
  /**
   * @override
   * @param {{entry: Entry, lang: string}} next
   */
  shouldComponentUpdate(next) {
    return next.entry !== this.props.entry || next.lang !== this.props.lang;
  }

  render() {
    const { entry } = this.props;
    const role = entry.role;
    const isUser = role === "user";
    return html`
      <article
        class=${`entry entry-${role} entry-${entry.status}`}
        data-testid="entry"
        data-role=${role}
        data-entry-id=${entry.id}
        data-status=${entry.status}
      >
        ${!isUser && html`<div class="entry-role">${t(/** @type {any} */ (`role.${role}`))}</div>`}
        <div class=${isUser ? "bubble" : "entry-body"}>
          ${entry.parts.map((p) => html`<${PartView} part=${p} />`)}
        </div>
        <${StatusLine} status=${entry.status} />
      </article>
    `;
  }
}
