/**
 * Pure parts of the in-page notifications: the title badge counts tasks waiting for you
 * (live or from before a restart) or unread, each once; the words of each event exist
 * in both languages.
 */
import { assertEquals } from "./helpers/assert.ts";
import { badgeCount, badgedTitle, notifyKeys } from "../ui/state/notify_model.js";
import { DICTS, loadLang } from "../ui/i18n/index.js";
import type { NotifyEvent, TaskSummary } from "../protocol/index.ts";

// Chinese is loaded on demand in the app; these checks read it.
await loadLang("zh-CN");

const task = (id: string, over: Partial<TaskSummary> = {}): TaskSummary => ({
  id,
  title: id,
  projectPath: null,
  pinned: false,
  status: "idle",
  lastRun: "done",
  queued: 0,
  unread: false,
  createdAt: 0,
  updatedAt: 0,
  entryCount: 2,
  settings: { model: null, effort: null, approval: null },
  ...over,
});

Deno.test("title badge: waiting or unread tasks, each counted once", () => {
  const tasks = [
    task("a", { status: "waiting" }),
    task("b", { unread: true }),
    task("c", { status: "waiting", unread: true }),
    task("d", { status: "running" }),
    task("e"),
    task("f"), // holds an approval kept from before a restart
  ];
  assertEquals(badgeCount(tasks, new Set()), 3);
  assertEquals(badgeCount(tasks, new Set(["f"])), 4);
  assertEquals(badgedTitle("Fix it · ReinAgent", 0), "Fix it · ReinAgent");
  assertEquals(badgedTitle("Fix it · ReinAgent", 2), "(2) Fix it · ReinAgent");
  assertEquals(badgedTitle("x", 120), "(99+) x");
});

Deno.test("every event has its words in English and Chinese", () => {
  const base = { id: "n", taskId: "t", taskTitle: "T", at: 0 };
  const events: NotifyEvent[] = [
    { ...base, kind: "waiting", reason: "approval" },
    { ...base, kind: "waiting", reason: "question" },
    { ...base, kind: "finished", reason: null },
    { ...base, kind: "failed", reason: null },
  ];
  const keys = events.map((e) => notifyKeys(e).title);
  assertEquals(keys, [
    "notify.waiting.approval",
    "notify.waiting.question",
    "notify.finished",
    "notify.failed",
  ]);
  for (const k of keys) {
    for (const lang of ["en-US", "zh-CN"]) assertEquals(typeof DICTS[lang][k], "string", k);
  }
});
