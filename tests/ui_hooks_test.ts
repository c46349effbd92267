/**
 * Hook notices read in the reader's language: every code the server writes
 * (server/agent/hooks/engine.ts, turn_hooks.ts, run_hook.ts) has a text in both languages,
 * with the trusted copy and the way to review added where they apply.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { noteText } from "../ui/components/hooks/HookNotes.js";
import { lang } from "../ui/state/prefs.js";
import { loadLang } from "../ui/i18n/index.js";
import type { Entry } from "../protocol/index.ts";

// The Chinese strings load on demand, as in the app.
await loadLang("zh-CN");

const CODES = [
  "failure.timeout",
  "failure.exit",
  "failure.start",
  "failure.json",
  "failure.signal",
  "failure.stopped",
  "untrusted",
  "changed",
  "invalid",
  "blocked",
  "continue",
  "message",
];

const note = (code: string, params: Record<string, unknown>): Entry => ({
  id: "m1",
  taskId: "t1",
  pos: 1,
  role: "system",
  status: "done",
  createdAt: 0,
  updatedAt: 0,
  parts: [{ type: "text", text: "English from the server" }],
  meta: { kind: "hook", code, params },
});

Deno.test("hook notices: every code is said in both languages", () => {
  const params = { event: "PreToolUse", s: 1, code: 3, message: "m", signal: "SIGKILL" };
  try {
    for (const l of ["en-US", "zh-CN"] as const) {
      lang.value = l;
      for (const code of CODES) {
        const text = noteText(
          note(code, { ...params, path: "/p", n: 1, reason: "r", text: "x", error: "e" }),
        );
        assert(!text.includes("hooks.note."), `${l} ${code}: ${text}`);
        assert(!/\{\w+\}/.test(text), `${l} ${code} has an unfilled placeholder: ${text}`);
      }
    }
    lang.value = "en-US";
    assertMatch(
      noteText(note("changed", { path: "/p/.reinagent/config.json", n: 2, kept: 1 })),
      /changed since you trusted them \(2 now\).*The 1 hook\(s\) you trusted before still run.*reinagent hooks trust/,
    );
    assertEquals(noteText(note("", {})), "English from the server", "older entries");
    lang.value = "zh-CN";
    assertMatch(
      noteText(note("failure.timeout", { event: "Stop", s: 60 })),
      /Stop 钩子失败：60 秒后超时/,
    );
  } finally {
    lang.value = "en-US";
  }
});
