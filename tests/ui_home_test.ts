/**
 * Pure logic of the phone task home: display status from the task
 * summaries, local time groups around midnight and week boundaries (injected "now"),
 * relative times, pinned first, workspace grouping in the sidebar's order.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { DICTS, loadLang } from "../ui/i18n/index.js";
import { RUN_ENDS, TASK_STATE_WORDS, TASK_STATES } from "../protocol/index.ts";
import {
  buildHome,
  displayStatus,
  LOOSE_KEY,
  relativeTime,
  startOfWeek,
  statusCounts,
  timeGroupOf,
  workspaceName,
} from "../ui/state/home_model.js";
import type { Project, TaskSummary } from "../protocol/index.ts";

// The Chinese strings load on demand, as in the app.
await loadLang("zh-CN");

/** Local time (the groups are local). Month is 1-based. */
const at = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) =>
  new Date(y, mo - 1, d, h, mi, s, ms).getTime();

let n = 0;
function task(extra: Partial<TaskSummary> = {}): TaskSummary {
  n++;
  return {
    id: `t${n}`,
    title: `Task ${n}`,
    projectPath: null,
    pinned: false,
    status: "idle",
    lastRun: null,
    queued: 0,
    unread: false,
    createdAt: 0,
    updatedAt: 0,
    entryCount: 2,
    settings: { model: null, effort: null, approval: null },
    ...extra,
  } as TaskSummary;
}

function project(id: string, path: string, name: string): Project {
  return { id, path, name, sort: 0, createdAt: 0, updatedAt: 0, taskCount: 0, setupCommand: null };
}

Deno.test("home: the state comes from the server's record, not from having entries", () => {
  assertEquals(displayStatus(task({ status: "running" })), "running");
  assertEquals(displayStatus(task({ status: "waiting" })), "waiting");
  // How the last run ended, as the server recorded it.
  assertEquals(displayStatus(task({ lastRun: "done" })), "done");
  assertEquals(displayStatus(task({ lastRun: "stopped" })), "stopped");
  assertEquals(displayStatus(task({ lastRun: "failed" })), "failed");
  assertEquals(displayStatus(task({ lastRun: "maxSteps" })), "maxSteps");
  assertEquals(displayStatus(task({ lastRun: "interrupted" })), "interrupted");
  // Entries alone never make a task "done": it never ran (e.g. created with a title).
  assertEquals(displayStatus(task({ lastRun: null, entryCount: 3 })), "new");
  // A queued message that waits (after a stop) is what the task is about now.
  assertEquals(displayStatus(task({ lastRun: "stopped", queued: 1 })), "queued");
  assertEquals(displayStatus(task({ status: "running", queued: 2 })), "running");
  // An older server's "error" still reads as failed.
  assertEquals(displayStatus(task({ status: "error" })), "failed");
  // A pending approval kept from before a restart: waiting, unless a run is live.
  assertEquals(displayStatus(task({ lastRun: "interrupted" }), true), "waiting");
  assertEquals(displayStatus(task({ lastRun: "failed", queued: 1 }), true), "waiting");
  assertEquals(displayStatus(task({ status: "running" }), true), "running");
});

Deno.test("task state: one word per state, the same in the CLI and the UI's English", () => {
  for (const s of TASK_STATES) {
    if (s === "new") {
      assertEquals(TASK_STATE_WORDS[s], "");
      continue;
    }
    assertEquals(DICTS["en-US"][`task.state.${s}`], TASK_STATE_WORDS[s], s);
    assert(DICTS["zh-CN"][`task.state.${s}`], `zh-CN task.state.${s}`);
  }
  // Every way a run can end is a state of its own.
  for (const end of RUN_ENDS) assert((TASK_STATES as readonly string[]).includes(end), end);
});

Deno.test("home: today and yesterday switch exactly at local midnight", () => {
  // Wednesday 2026-03-11, a few seconds after midnight.
  const now = at(2026, 3, 11, 0, 0, 5);
  assertEquals(timeGroupOf(at(2026, 3, 11, 0, 0, 0), now), "today");
  assertEquals(timeGroupOf(at(2026, 3, 10, 23, 59, 59, 999), now), "yesterday");
  assertEquals(timeGroupOf(at(2026, 3, 10, 0, 0, 0), now), "yesterday");
  assertEquals(timeGroupOf(at(2026, 3, 9, 23, 59, 59, 999), now), "week"); // Monday
  assertEquals(timeGroupOf(at(2026, 3, 9, 0, 0, 0), now), "week");
  assertEquals(timeGroupOf(at(2026, 3, 8, 23, 59, 59, 999), now), "older"); // Sunday
  // Late the same evening, nothing moves.
  const late = at(2026, 3, 11, 23, 59, 59, 999);
  assertEquals(timeGroupOf(at(2026, 3, 11, 0, 0, 0), late), "today");
  assertEquals(timeGroupOf(at(2026, 3, 10, 12), late), "yesterday");
  // A moment in the future (another device's clock ahead) counts as today.
  assertEquals(timeGroupOf(now + 3_600_000, now), "today");
});

Deno.test("home: week boundaries follow the first day of the week", () => {
  // Monday 2026-03-09 10:00: with Monday-first weeks, yesterday (Sunday) is already
  // last week, so "earlier this week" is empty and Saturday is older.
  const mon = at(2026, 3, 9, 10);
  assertEquals(timeGroupOf(at(2026, 3, 8, 9), mon, 1), "yesterday");
  assertEquals(timeGroupOf(at(2026, 3, 7, 23), mon, 1), "older");
  // With Sunday-first weeks Sunday starts the week, still yesterday; Saturday older.
  assertEquals(timeGroupOf(at(2026, 3, 7, 23), mon, 0), "older");
  // Saturday 2026-03-14: Sunday-first → Sunday 8th is this week; Monday-first → Monday 9th.
  const sat = at(2026, 3, 14, 8);
  assertEquals(timeGroupOf(at(2026, 3, 8, 12), sat, 0), "week");
  assertEquals(timeGroupOf(at(2026, 3, 8, 12), sat, 1), "older");
  assertEquals(timeGroupOf(at(2026, 3, 9, 0), sat, 1), "week");
  assertEquals(timeGroupOf(at(2026, 3, 12, 20), sat, 1), "week");
  assertEquals(timeGroupOf(at(2026, 3, 13, 20), sat, 1), "yesterday");
  // Sunday 2026-03-15 with Sunday-first weeks: the week is just today.
  const sun = at(2026, 3, 15, 12);
  assertEquals(timeGroupOf(at(2026, 3, 14, 12), sun, 0), "yesterday");
  assertEquals(timeGroupOf(at(2026, 3, 13, 12), sun, 0), "older");
  assertEquals(timeGroupOf(at(2026, 3, 13, 12), sun, 1), "week");
  // Across a month and a year boundary.
  assertEquals(startOfWeek(at(2026, 1, 1, 15), 1), at(2025, 12, 29));
  assertEquals(timeGroupOf(at(2025, 12, 31, 18), at(2026, 1, 1, 9)), "yesterday");
  assertEquals(timeGroupOf(at(2025, 12, 29, 1), at(2026, 1, 1, 9)), "week");
  assertEquals(timeGroupOf(at(2025, 12, 28, 23), at(2026, 1, 1, 9)), "older");
});

Deno.test("home: relative times", () => {
  const now = at(2026, 3, 11, 12);
  assertEquals(relativeTime(now - 59_000, now).unit, "now");
  assertEquals(relativeTime(now + 5_000, now).unit, "now");
  assertEquals(relativeTime(now - 60_000, now), { unit: "min", n: 1, sameYear: true });
  assertEquals(relativeTime(now - 3_599_999, now).n, 59);
  assertEquals(relativeTime(now - 3_600_000, now), { unit: "hour", n: 1, sameYear: true });
  assertEquals(relativeTime(now - 86_400_000 * 6.5, now), { unit: "day", n: 6, sameYear: true });
  assertEquals(relativeTime(now - 86_400_000 * 7, now).unit, "date");
  assertEquals(relativeTime(at(2025, 12, 1), now), { unit: "date", n: 0, sameYear: false });
});

Deno.test("home: pinned first, then workspaces in sidebar order, each by time", () => {
  const now = at(2026, 3, 11, 12); // Wednesday
  const pA = project("pa", "/w/a", "alpha");
  const pB = project("pb", "/w/b", "beta");
  const pEmpty = project("pe", "/w/empty", "empty");
  const a1 = task({ projectPath: "/w/a", updatedAt: at(2026, 3, 11, 9) });
  const a2 = task({ projectPath: "/w/a", updatedAt: at(2026, 3, 10, 9) });
  const a3 = task({ projectPath: "/w/a", updatedAt: at(2026, 3, 11, 11) });
  const b1 = task({ projectPath: "/w/b", updatedAt: at(2026, 2, 1) });
  const pinnedOld = task({ projectPath: "/w/b", pinned: true, updatedAt: at(2025, 1, 1) });
  const pinnedNew = task({ pinned: true, updatedAt: at(2026, 3, 11, 8) });
  const loose1 = task({ updatedAt: at(2026, 3, 9, 9) }); // Monday: earlier this week
  const gone = task({ projectPath: "/w/removed", updatedAt: at(2026, 3, 11, 10) });
  const home = buildHome(
    [b1, a1, loose1, pinnedOld, a2, gone, a3, pinnedNew],
    [pA, pEmpty, pB],
    { now, weekStart: 1 },
  );
  assertEquals(home.total, 8);
  assertEquals(home.pinned.map((x) => x.id), [pinnedNew.id, pinnedOld.id]);
  // Empty project left out; "Tasks" (no project, or a project no longer listed) last.
  assertEquals(home.groups.map((g) => g.key), ["project:pa", "project:pb", LOOSE_KEY]);
  const [ga, gb, gl] = home.groups;
  assertEquals([ga.name, ga.projectPath, ga.count], ["alpha", "/w/a", 3]);
  assertEquals(ga.sections.map((s) => [s.key, s.tasks.map((x) => x.id)]), [
    ["today", [a3.id, a1.id]],
    ["yesterday", [a2.id]],
  ]);
  // The pinned task is not repeated in its workspace.
  assertEquals(gb.sections.map((s) => [s.key, s.tasks.map((x) => x.id)]), [["older", [b1.id]]]);
  assertEquals([gl.name, gl.projectPath], [null, null]);
  assertEquals(gl.sections.map((s) => [s.key, s.tasks.map((x) => x.id)]), [
    ["today", [gone.id]],
    ["week", [loose1.id]],
  ]);
  // The sidebar shows Tasks above Projects: so does the home.
  const looseFirst = buildHome([a1, loose1], [pA], { now, looseFirst: true });
  assertEquals(looseFirst.groups.map((g) => g.key), [LOOSE_KEY, "project:pa"]);
  // Equal times keep a stable order (by id).
  const x = task({ id: "x", updatedAt: 5 });
  const w = task({ id: "w", updatedAt: 5 });
  assertEquals(buildHome([x, w], [], { now }).groups[0].sections[0].tasks.map((t) => t.id), [
    "w",
    "x",
  ]);
  assertEquals(buildHome([], [pA], { now }), { pinned: [], groups: [], total: 0 });
  assertEquals(workspaceName(pinnedOld, [pA, pB]), "beta");
  assertEquals(workspaceName(pinnedNew, [pA, pB]), null);
  assertEquals(workspaceName(gone, [pA, pB]), null);
});

Deno.test("home: the summary counts what needs attention", () => {
  const tasks = [
    task({ status: "running", unread: true }),
    task({ status: "waiting" }),
    task({ id: "held", lastRun: "interrupted" }),
    task({ lastRun: "failed", unread: true }),
    task({ lastRun: "stopped", queued: 1 }),
    task({ lastRun: "stopped" }),
    task({ lastRun: "done" }),
  ];
  assertEquals(statusCounts(tasks, new Set(["held"])), {
    running: 1,
    waiting: 2,
    queued: 1,
    failed: 1,
    unread: 2,
  });
});
