/**
 * The composer's two suggestion menus, from the text and the caret: the `/` menu
 * (while the first word of a message starting with `/` is typed) and the `@` picker
 * (while a mention is typed; results from the server's `files.mention`, debounced).
 * ↑↓ move, Enter/Tab choose, Esc closes until the text changes. Choosing only edits
 * the text: a command is filled in (sending runs it), a path becomes `@path`. Enter on
 * a command typed out in full sends it.
 *
 * @typedef {import("../../protocol/index.ts").MentionItem} MentionItem
 * @typedef {import("../../protocol/index.ts").CommandInfo} CommandInfo
 */
import { computed, effect, signal } from "@preact/signals";
import {
  extractMentions,
  filterCommands,
  formatMention,
  mentionQuery,
  slashQuery,
} from "../../protocol/index.ts";
import { connState, request } from "./connection.js";
import { composerText, notifyError } from "./ui.js";
import { loadCommands, menuCommands, scopeArgs } from "./commands.js";

/** Caret position in the composer (kept by its input, key and click handlers). */
export const caret = signal(0);
/** The text at which Esc closed the menus (they stay closed until it changes). */
const dismissedAt = signal(/** @type {string|null} */ (null));
/** The highlighted row of the open menu. */
export const activeIndex = signal(0);

export const slashMenu = computed(() => {
  const text = composerText.value;
  if (dismissedAt.value === text) return null;
  const q = slashQuery(text, caret.value);
  return q === null ? null : { query: q, items: filterCommands(menuCommands.value, q) };
});

/** The mention being typed: where its `@` is and the query after it. */
export const mentionAt = computed(() => {
  const text = composerText.value;
  if (dismissedAt.value === text || slashMenu.value) return null;
  return mentionQuery(text, caret.value);
});

/** Picker results for `query` (null while the first answer is on its way). */
export const mentionResults = signal(
  /** @type {{query: string, items: MentionItem[], truncated: boolean}|null} */ (null),
);

/** Paths chosen in the picker this session: their tokens show as chips. */
export const pickedPaths = signal(/** @type {Set<string>} */ (new Set()));
/**
 * MCP resources chosen in the picker, by token (`server:uri`): their chips show the
 * resource's name and server.
 * @type {import("@preact/signals").Signal<Map<string, {server: string, name: string, uri: string}>>}
 */
export const pickedResources = signal(new Map());

/** Asked again while MCP servers are still connecting (their resources join the list). */
const retry = signal(0);
const RETRY_MS = 700;
const MAX_RETRIES = 8;
let retries = 0;
let retriedKey = "";

const DEBOUNCE_MS = 120;
/** @type {ReturnType<typeof setTimeout>|undefined} */
let timer;
let asked = "";
effect(() => {
  const at = mentionAt.value;
  const scope = scopeArgs.value;
  void retry.value;
  clearTimeout(timer);
  if (!at || connState.value !== "open") return;
  const key = JSON.stringify([scope, at.query]);
  if (key === asked) return;
  timer = setTimeout(async () => {
    if (key !== retriedKey) {
      retriedKey = key;
      retries = 0;
    }
    asked = key;
    try {
      const r = await request("files.mention", { ...scope, q: at.query });
      if (asked !== key) return;
      mentionResults.value = { query: at.query, items: r.items, truncated: r.truncated };
      if (r.pending && retries < MAX_RETRIES) {
        retries++;
        setTimeout(() => {
          if (asked !== key) return;
          asked = "";
          retry.value++;
        }, RETRY_MS);
      }
    } catch (e) {
      if (asked === key) mentionResults.value = { query: at.query, items: [], truncated: false };
      notifyError("mention.error", e);
    }
  }, DEBOUNCE_MS);
});

// The `/` menu loads the view's custom commands when it opens.
const slashOpen = computed(() => slashMenu.value !== null);
effect(() => {
  if (slashOpen.value) loadCommands();
});

// A new query starts at the first row.
effect(() => {
  void slashMenu.value?.query;
  void mentionAt.value?.query;
  activeIndex.value = 0;
});

/** The open menu and its rows, or null. */
export const openMenu = computed(() => {
  const s = slashMenu.value;
  if (s) return { kind: /** @type {const} */ ("slash"), items: s.items, query: s.query };
  const m = mentionAt.value;
  if (!m) return null;
  const r = mentionResults.value;
  const items = r ? r.items : [];
  return {
    kind: /** @type {const} */ ("mention"),
    items,
    query: m.query,
    loading: !r,
    truncated: r?.truncated ?? false,
  };
});

/**
 * Fills in command `name` in place of the first word; returns the new caret.
 * @param {string} name
 */
export function pickCommand(name) {
  const text = composerText.value;
  const head = /^\s*\/\S*\s*/.exec(text)?.[0] ?? "";
  const fill = `/${name} `;
  composerText.value = fill + text.slice(head.length);
  caret.value = fill.length;
  return fill.length;
}

/**
 * Replaces the mention being typed with `item`'s token; a folder stays open for more
 * typing (its path ends with `/`), a file or resource gets a space after it. A resource
 * template leaves its fixed part (before the first `{`) to be completed. Returns the
 * new caret.
 * @param {MentionItem} item
 */
export function pickMention(item) {
  const at = mentionAt.value;
  if (!at) return caret.value;
  const text = composerText.value;
  const open = item.type === "dir" || (item.type === "resource" && item.template === true);
  const path = item.type === "resource" && item.template
    ? item.path.slice(0, item.path.indexOf("{"))
    : item.path;
  const token = (open ? `@${path}` : formatMention(path)) + (open ? "" : " ");
  if (item.type === "resource") {
    const m = new Map(pickedResources.value);
    m.set(item.path, { server: item.server, name: item.name, uri: item.uri });
    pickedResources.value = m;
  }
  // The rest of the word under the caret belongs to the token being replaced.
  let rest = text.slice(caret.value).replace(/^\S*/, "");
  if (token.endsWith(" ") && rest.startsWith(" ")) rest = rest.slice(1);
  composerText.value = text.slice(0, at.start) + token + rest;
  pickedPaths.value = new Set([...pickedPaths.value, item.path.replace(/\/$/, ""), item.path]);
  caret.value = at.start + token.length;
  return caret.value;
}

/** Closes the menus until the text changes (Esc). */
export function dismissMenus() {
  dismissedAt.value = composerText.value;
}

/**
 * Mentions in the composer's text that were chosen in the picker (the chips); a resource
 * typed after its template was picked counts too.
 */
export const composerMentions = computed(() => {
  const seen = new Set();
  const templates = [...pickedResources.value.keys()].filter((k) => k.includes("{"))
    .map((k) => k.slice(0, k.indexOf("{")));
  return extractMentions(composerText.value).filter((m) => {
    const picked = pickedPaths.value.has(m.path) ||
      templates.some((t) => m.path.startsWith(t) && m.path.length > t.length);
    if (!picked || seen.has(m.path)) return false;
    seen.add(m.path);
    return true;
  });
});

/**
 * Removes every token of mention `path` from the composer text.
 * @param {string} path
 */
export function removeMention(path) {
  const text = composerText.value;
  const cut = extractMentions(text).filter((m) => m.path === path).reverse();
  let out = text;
  for (const m of cut) out = out.slice(0, m.start) + out.slice(m.end).replace(/^ /, "");
  composerText.value = out;
}

/**
 * Keyboard of the open menu: ↑↓ move (wrapping), Enter/Tab choose, Esc closes.
 * Returns the new caret when a row was chosen, true when the key was used otherwise,
 * false when the key is left to the composer.
 * @param {KeyboardEvent} e
 * @returns {number|boolean}
 */
export function menuKey(e) {
  const menu = openMenu.value;
  if (!menu || e.isComposing || e.keyCode === 229) return false;
  if (e.key === "Escape") {
    dismissMenus();
    return true;
  }
  const n = menu.items.length;
  if (!n || e.altKey || e.ctrlKey || e.metaKey) return false;
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    activeIndex.value = (activeIndex.value + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
    return true;
  }
  if ((e.key === "Enter" || e.key === "Tab") && !e.shiftKey) {
    const i = Math.min(activeIndex.value, n - 1);
    // A command typed out in full: Enter sends it (there is nothing left to choose).
    const name = menu.kind === "slash" ? /** @type {CommandInfo} */ (menu.items[i]).name : "";
    if (e.key === "Enter" && name && name === menu.query.toLowerCase()) return false;
    return menu.kind === "slash"
      ? pickCommand(/** @type {CommandInfo} */ (menu.items[i]).name)
      : pickMention(/** @type {MentionItem} */ (menu.items[i]));
  }
  return false;
}
