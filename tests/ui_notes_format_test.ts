/** The Notes editor's Markdown shortcuts (ui/components/notes/md_format.js). */
import { assertEquals } from "./helpers/assert.ts";
import { applyFormat } from "../ui/components/notes/md_format.js";

Deno.test("notes format: wraps the selection, or puts empty marks at the caret", () => {
  assertEquals(applyFormat({ text: "a word here", start: 2, end: 6 }, "bold"), {
    text: "a **word** here",
    start: 4,
    end: 8,
  });
  assertEquals(applyFormat({ text: "x", start: 1, end: 1 }, "code"), {
    text: "x``",
    start: 2,
    end: 2,
  });
  assertEquals(applyFormat({ text: "ab", start: 0, end: 2 }, "italic").text, "_ab_");
});

Deno.test("notes format: prefixes the selected lines; a heading replaces a heading", () => {
  assertEquals(applyFormat({ text: "one\ntwo\nthree", start: 1, end: 6 }, "list"), {
    text: "- one\n- two\nthree",
    start: 0,
    end: 10,
  });
  assertEquals(applyFormat({ text: "# Title\nbody", start: 3, end: 3 }, "h2"), {
    text: "## Title\nbody",
    start: 4,
    end: 4,
  });
  assertEquals(applyFormat({ text: "buy milk", start: 8, end: 8 }, "todo"), {
    text: "- [ ] buy milk",
    start: 14,
    end: 14,
  });
  assertEquals(applyFormat({ text: "", start: 0, end: 0 }, "h3"), {
    text: "### ",
    start: 4,
    end: 4,
  });
});
