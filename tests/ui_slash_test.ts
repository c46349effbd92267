/**
 * The composer's `/` menu and `@` picker without a DOM (state/suggest.js): when each
 * opens, the keyboard (↑↓ wrap, Enter/Tab fill, Enter on a full name sends, Esc), what
 * choosing writes into the text; and a `/clear` marker shown as a band of its turn.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import type { Entry } from "../protocol/index.ts";
import { analyseTurn } from "../ui/state/timeline_model.js";

// The state modules listen to the page at load; a stub page is enough here.
const g = globalThis as unknown as Record<string, unknown>;
g.document ??= { addEventListener() {} };
const { composerText } = await import("../ui/state/ui.js");
const { activeIndex, caret, composerMentions, menuKey, openMenu, pickMention, removeMention } =
  await import("../ui/state/suggest.js");

const key = (k: string, extra: Partial<KeyboardEvent> = {}) =>
  ({
    key: k,
    shiftKey: false,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    ...extra,
  }) as KeyboardEvent;

function typed(text: string, at = text.length) {
  composerText.value = text;
  caret.value = at;
}

Deno.test("/ menu: opens on the first word, ↑↓ wrap, Enter/Tab fill, full names send, Esc", () => {
  typed("/");
  assertEquals(openMenu.value?.kind, "slash");
  assertEquals(openMenu.value?.items.map((c) => (c as { name: string }).name), [
    "clear",
    "compact",
    "init",
    "plan",
    "goal",
    "cost",
    "model",
    "resume",
    "undo",
    "review",
    "help",
  ]);
  assertEquals(menuKey(key("ArrowUp")), true);
  assertEquals(activeIndex.value, 10, "↑ on the first row wraps to the last");
  assertEquals(menuKey(key("ArrowDown")), true);
  assertEquals(activeIndex.value, 0);
  typed("/pl");
  assertEquals(activeIndex.value, 0, "a new query starts at the first row");
  assertEquals(menuKey(key("Tab")), "/plan ".length);
  assertEquals(composerText.value, "/plan ");
  assertEquals(openMenu.value, null, "past the name: closed");
  typed("/help");
  assertEquals(menuKey(key("Enter")), false, "a full name is left to send");
  assertEquals(menuKey(key("Tab")), "/help ".length);
  typed("/in rest of text", 3);
  menuKey(key("Enter"));
  assertEquals(composerText.value, "/init rest of text");
  typed("/g");
  assertEquals(menuKey(key("Escape")), true);
  assertEquals(openMenu.value, null);
  typed("/go");
  assert(openMenu.value, "typing again reopens it");
  typed("/usr/bin/env");
  assertEquals(openMenu.value, null);
  typed("/x", 2);
  assertEquals(menuKey(key("Enter")), false, "no rows: Enter sends");
});

Deno.test("@ picker: replaces the typed mention, folders stay open, chips and removal", () => {
  typed("see @sr and more", 7);
  assertEquals(openMenu.value?.kind, "mention");
  assertEquals(openMenu.value?.query, "sr");
  assertEquals(pickMention({ path: "src/", type: "dir" }), "see @src/".length);
  assertEquals(composerText.value, "see @src/ and more");
  caret.value = "see @src/".length;
  assertEquals(openMenu.value?.query, "src/", "a folder keeps the picker open");
  pickMention({ path: "src/my file.ts", type: "file" });
  assertEquals(composerText.value, 'see @"src/my file.ts" and more');
  assertEquals(composerMentions.value.map((m) => m.path), ["src/my file.ts"]);
  removeMention("src/my file.ts");
  assertEquals(composerText.value, "see and more");
  typed("mail me@host", 12);
  assertEquals(openMenu.value, null);
});

Deno.test("timeline: a /clear marker is a band of its turn, not part of its work", () => {
  const e = (id: string, role: Entry["role"], extra: Partial<Entry> = {}): Entry => ({
    id,
    taskId: "t",
    pos: Number(id.slice(1)),
    role,
    status: "done",
    createdAt: 1,
    updatedAt: 1,
    parts: [{ type: "text", text: id }],
    meta: {},
    ...extra,
  });
  const turn = {
    id: "m1",
    user: e("m1", "user"),
    items: [e("m2", "assistant"), e("m3", "system", { meta: { kind: "clear" } })],
  };
  const view = analyseTurn(turn, false);
  assertEquals(view.clears.map((x: Entry) => x.id), ["m3"]);
  assertEquals(view.final?.entry.id, "m2", "the answer is still the answer");
  assertEquals(view.process.length, 0);
});
