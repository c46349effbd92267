/**
 * Markdown AST (parse.js, inline.js) to Preact vnodes. Safe by construction: text is
 * always a text node (never HTML), links only carry URLs that passed `safeUrl` and
 * open in a new tab with `rel="noopener noreferrer"`, images are never loaded.
 *
 * @typedef {import("./parse.js").Block} Block
 * @typedef {import("./inline.js").Inline} Inline
 */
import { h } from "preact";
import { parseInline } from "./inline.js";
import { CodeBlock } from "../components/CodeBlock.js";

/**
 * @param {Inline[]} nodes
 * @returns {any[]}
 */
export function renderInline(nodes) {
  return nodes.map((n) => {
    switch (n.t) {
      case "text":
        return n.v;
      case "code":
        return h("code", { class: "md-code-span" }, n.v);
      case "br":
        return h("br", null);
      case "em":
        return h("em", null, renderInline(n.c));
      case "strong":
        return h("strong", null, renderInline(n.c));
      case "del":
        return h("del", null, renderInline(n.c));
      case "link":
        if (!n.href) return h("span", { class: "md-nolink" }, renderInline(n.c));
        return h("a", {
          href: n.href,
          target: "_blank",
          rel: "noopener noreferrer",
          class: n.image ? "md-link md-image-link" : "md-link",
        }, renderInline(n.c));
    }
  });
}

/** @param {string} text */
const inline = (text) => renderInline(parseInline(text));

/**
 * @param {Block} b
 * @param {boolean} [tight] a paragraph directly inside a tight list item
 * @returns {any}
 */
export function renderBlock(b, tight = false) {
  switch (b.t) {
    case "p":
      return tight ? inline(b.text) : h("p", null, inline(b.text));
    case "h":
      return h(`h${b.level}`, { class: "md-h" }, inline(b.text));
    case "code":
      return h(CodeBlock, { lang: b.lang, text: b.text });
    case "hr":
      return h("hr", null);
    case "quote":
      return h("blockquote", null, b.children.map((c) => renderBlock(c)));
    case "list": {
      const items = b.items.map((it) => {
        const body = it.children.map((c) => renderBlock(c, !b.loose));
        if (it.task === null) return h("li", null, body);
        return h("li", { class: "md-task" }, [
          h("input", {
            type: "checkbox",
            checked: it.task,
            disabled: true,
            "aria-checked": it.task ? "true" : "false",
          }),
          " ",
          ...body,
        ]);
      });
      const cls = b.items.some((it) => it.task !== null) ? "md-tasks" : undefined;
      return b.ordered
        ? h("ol", { start: b.start !== 1 ? b.start : undefined, class: cls }, items)
        : h("ul", { class: cls }, items);
    }
    case "table": {
      /** @param {number} k */
      const style = (k) => b.align[k] ? { textAlign: b.align[k] } : undefined;
      return h("div", { class: "md-table-wrap" }, [
        h("table", null, [
          h(
            "thead",
            null,
            h("tr", null, b.head.map((c, k) => h("th", { style: style(k) }, inline(c)))),
          ),
          b.rows.length
            ? h(
              "tbody",
              null,
              b.rows.map((r) =>
                h("tr", null, r.map((c, k) => h("td", { style: style(k) }, inline(c))))
              ),
            )
            : null,
        ]),
      ]);
    }
  }
}
