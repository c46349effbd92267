/**
 * The text of a user message as typed, with what the server made of it: each `@path`
 * it attached is a chip (a file chip opens the file's preview; an MCP resource's names
 * its server and URI), and the command of a prompt command (`/init`, a custom one) is
 * marked as such.
 *
 * @typedef {import("../../../protocol/index.ts").Entry} Entry
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { extractMentions } from "../../../protocol/index.ts";
import { currentId } from "../../state/tasks.js";
import { openFilePreview } from "../../state/panel.js";
import { IconFile, IconFolder, IconResource } from "../tools/ToolIcons.js";

const bare = (/** @type {string} */ p) => p.replace(/^\.\//, "").replace(/\/+$/, "");

/**
 * @param {{server?: unknown, uri?: unknown}} data the resource part's data
 * @param {string} label as typed
 */
function ResourceMention(data, label) {
  return html`
    <span
      class="msg-mention"
      data-testid="message-mention"
      data-kind="resource"
      data-path=${`${data.server}:${data.uri}`}
      title=${t("mention.resourceTitle", { uri: String(data.uri), server: String(data.server) })}
    >
      <span aria-hidden="true"><${IconResource} size=${13} /></span>${label}
    </span>
  `;
}

/**
 * @param {string} path as attached (folders end with `/`)
 * @param {string} label as typed
 */
function Mention(path, label) {
  const dir = path.endsWith("/");
  const taskId = currentId.value;
  const open = (/** @type {Event} */ e) => {
    if (dir || !taskId) return;
    e.preventDefault();
    openFilePreview(taskId, path);
  };
  return html`
    <span
      class=${`msg-mention${dir ? "" : " msg-mention-link"}`}
      data-testid="message-mention"
      data-path=${path}
      title=${dir ? path : t("panel.openPreview", { path })}
      role=${dir ? undefined : "link"}
      tabindex=${dir ? undefined : "0"}
      onClick=${open}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => e.key === "Enter" && open(e)}
    >
      <span aria-hidden="true">${dir
        ? html`<${IconFolder} size=${13} />`
        : html`<${IconFile} size=${13} />`}</span>${label}
    </span>
  `;
}

/** @param {{entry: Entry, text: string, first: boolean}} props */
export function MessageText({ entry, text, first }) {
  const attached = new Map(
    entry.parts.filter((p) => p.data?.mention && p.data.kind !== "resource").map((p) => {
      const path = String(p.data?.path ?? "");
      return [bare(path), path];
    }),
  );
  const resources = new Map(
    entry.parts.filter((p) => p.data?.mention && p.data.kind === "resource").map((p) => [
      String(p.data?.path ?? ""),
      /** @type {{server?: unknown, uri?: unknown}} */ (p.data),
    ]),
  );
  /** @type {any[]} */
  const out = [];
  let at = 0;
  const command = first && /** @type {{name?: string}|undefined} */ (entry.meta?.command);
  if (command && command.name) {
    const m = /^\s*\/\S+/.exec(text);
    if (m) {
      out.push(html`<span class="msg-command" data-testid="message-command">${m[0].trim()}</span>`);
      at = m[0].length;
    }
  }
  for (const m of extractMentions(text)) {
    if (m.start < at) continue;
    const res = resources.get(m.path);
    const path = res ? null : attached.get(bare(m.path));
    if (!res && !path) continue;
    const label = text.slice(m.start, m.end);
    out.push(
      text.slice(at, m.start),
      res ? ResourceMention(res, label) : Mention(String(path), label),
    );
    at = m.end;
  }
  out.push(text.slice(at));
  return html`<div class="part-text">${out}</div>`;
}
