/**
 * The `/` menu and the `@` picker, above the composer's text box. A listbox the text
 * box keeps focus over (aria-activedescendant): ↑↓ Enter/Tab Esc are handled by the
 * composer (state/suggest.js), a click or tap chooses a row. The picker lists files and
 * folders, then the connected MCP servers' resources under a heading of their own. Commands show their
 * argument hint, description and where they come from; command files that could not
 * be used are listed below them. Rows are ≥ 44 px tall on phones.
 *
 * @typedef {import("../../../protocol/index.ts").CommandInfo} CommandInfo
 * @typedef {import("../../../protocol/index.ts").MentionItem} MentionItem
 */
import { useEffect, useRef } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { activeIndex, openMenu, pickCommand, pickMention } from "../../state/suggest.js";
import { commandList, describe, scopeArgs } from "../../state/commands.js";
import { IconFile, IconFolder, IconResource } from "../tools/ToolIcons.js";
import { IconSlash } from "./CommandIcons.js";

/** @param {{onPicked: (caret: number) => void}} props */
export function SuggestMenu({ onPicked }) {
  const ref = useRef(/** @type {HTMLUListElement|null} */ (null));
  const menu = openMenu.value;
  const active = activeIndex.value;
  useEffect(() => {
    ref.current?.querySelector("[data-active=true]")?.scrollIntoView({ block: "nearest" });
  }, [active, menu?.query]);
  if (!menu) return null;
  const slash = menu.kind === "slash";
  const problems = slash && commandList.value.key === JSON.stringify(scopeArgs.value)
    ? commandList.value.problems
    : [];
  const keep = (/** @type {Event} */ e) => e.preventDefault(); // the text box keeps focus
  /** @type {(CommandInfo | MentionItem)[]} */
  const items = menu.items;
  const rows = items.map((entry, i) => {
    const on = i === Math.min(active, items.length - 1);
    // The menu's kind says what its rows are.
    const item = /** @type {CommandInfo & MentionItem} */ (entry);
    const pick = () => onPicked(slash ? pickCommand(item.name) : pickMention(item));
    const common = {
      id: `suggest-${i}`,
      role: "option",
      "aria-selected": on ? "true" : "false",
      "data-active": on ? "true" : "false",
      onMouseDown: keep,
      onClick: pick,
    };
    if (slash) {
      return html`
        <li ...${common} class="suggest-row" data-testid="slash-item" data-name=${item.name}
          title=${item.path ?? ""}>
          <span class="suggest-icon"><${IconSlash} size=${15} /></span>
          <span class="suggest-main">
            <span class="suggest-name">/${item.name}${item.argHint &&
              html`<span class="suggest-hint"> ${item.argHint}</span>`}</span>
            <span class="suggest-desc">${describe(item)}</span>
          </span>
          <span class="suggest-badge">${t(/** @type {any} */ (`cmd.source.${item.source}`))}</span>
        </li>
      `;
    }
    if (item.type === "resource") {
      const row = html`
        <li ...${common} class="suggest-row" data-testid="mention-item" data-path=${item.path}
          data-kind="resource" title=${item.description || item.uri}>
          <span class="suggest-icon"><${IconResource} size=${15} /></span>
          <span class="suggest-main">
            <span class="suggest-title">${item.name}</span>
            <span class="suggest-desc"><bdi dir="ltr">${item.uri}</bdi></span>
          </span>
          ${item.template && html`<span class="suggest-badge">${t("mention.template")}</span>`}
          <span class="suggest-badge" data-testid="mention-server">${item.server}</span>
        </li>
      `;
      // The group's heading comes before its first row (not an option: keys skip it).
      const prev = i > 0 ? /** @type {MentionItem} */ (items[i - 1]) : null;
      if (!prev || prev.type === "resource") return row;
      const head = html`<li class="suggest-group" role="presentation">${
        t("mention.resources")
      }</li>`;
      return [head, row];
    }
    const dir = item.type === "dir";
    const cut = item.path.replace(/\/$/, "").lastIndexOf("/");
    return html`
      <li ...${common} class="suggest-row" data-testid="mention-item" data-path=${item.path}>
        <span class="suggest-icon">${dir
          ? html`<${IconFolder} size=${15} />`
          : html`<${IconFile} size=${15} />`}</span>
        <span class="suggest-main suggest-path" title=${item.path}>
          <span class="suggest-dir"><bdi dir="ltr">${cut >= 0
            ? item.path.slice(0, cut + 1)
            : ""}</bdi></span>
          <span class="suggest-name">${cut >= 0 ? item.path.slice(cut + 1) : item.path}</span>
        </span>
        ${dir && html`<span class="suggest-badge">${t("mention.folder")}</span>`}
      </li>
    `;
  });
  const empty = !menu.items.length &&
    html`<li class="suggest-empty" role="presentation">${
      slash
        ? t("cmd.empty", { query: menu.query })
        : "loading" in menu && menu.loading
        ? t("mention.loading")
        : t("mention.empty", { query: menu.query })
    }</li>`;
  const title = slash
    ? t("cmd.menu")
    : items.some((x) => /** @type {MentionItem} */ (x).type === "resource")
    ? t("mention.menuAll")
    : t("mention.menu");
  const more = !slash && "truncated" in menu && menu.truncated &&
    html`<li class="suggest-empty" role="presentation">${t("mention.more")}</li>`;
  return html`
    <div class="suggest" data-testid=${slash ? "slash-menu" : "mention-menu"}>
      <p class="suggest-head">${title}</p>
      <ul
        ref=${ref}
        class="suggest-list"
        role="listbox"
        id="composer-suggest"
        aria-label=${title}
      >
        ${rows}${empty}${more}
      </ul>
      ${problems.length > 0 && html`
        <div class="suggest-problems" data-testid="command-problems">
          <p class="suggest-head">${t("cmd.problems")}</p>
          ${problems.map((p) =>
            html`<p class="suggest-problem" title=${p.path}><code>${
              p.path.split("/").slice(-3).join("/")
            }</code> ${p.message}</p>`
          )}
        </div>
      `}
    </div>
  `;
}
