/** Terminal dock model: Ctrl+key codes of the phone's sticky Ctrl, tab reordering. */
import { assertEquals } from "./helpers/assert.ts";
import { moveBefore, withCtrl } from "../ui/state/terminal_model.js";
import { parsePs } from "../server/terminal/processes.ts";

Deno.test("withCtrl: letters and [\\]^_@ become control codes; the rest is unchanged", () => {
  assertEquals(withCtrl("c"), "\x03");
  assertEquals(withCtrl("C"), "\x03");
  assertEquals(withCtrl("u"), "\x15");
  assertEquals(withCtrl("["), "\x1b");
  assertEquals(withCtrl("@"), "\x00");
  assertEquals(withCtrl("|"), "|");
  assertEquals(withCtrl("\x1b[A"), "\x1b[A");
  assertEquals(withCtrl("ab"), "ab");
});

Deno.test("moveBefore: the dropped tab takes the target's place; unknown ids change nothing", () => {
  assertEquals(moveBefore(["a", "b", "c"], "c", "a"), ["c", "a", "b"]);
  assertEquals(moveBefore(["a", "b", "c"], "a", "c"), ["b", "a", "c"]);
  assertEquals(moveBefore(["a", "b"], "a", "gone"), ["b", "a"]);
  assertEquals(moveBefore(["a", "b"], "x", "a"), ["a", "b"]);
});

Deno.test("parsePs: a session's live processes; zombies and other sessions are left out", () => {
  const out = [
    "  100   100   100 Ss   bash",
    "  120   120   100 S+   vi",
    "  130   130   100 Z    sleep",
    "  140   140   999 S    other",
    "  150   120   100 S+   my prog (x)",
    "garbage",
  ].join("\n");
  assertEquals(parsePs(out, 100), [
    { pid: 100, pgid: 100, command: "bash" },
    { pid: 120, pgid: 120, command: "vi" },
    { pid: 150, pgid: 120, command: "my prog (x)" },
  ]);
});
