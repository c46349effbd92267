/**
 * Git panel and panel-tab logic (pure UI modules): the status grouped as shown (a file
 * staged and changed again is in both groups), XY codes, the commit graph's SVG pieces
 * from the server's layout, and which view each tab opens.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { graphShapes, groupFiles, LANE_W, ROW_H, xyCode } from "../ui/state/git_model.js";
import { layoutGraph } from "../server/git/graph.ts";
import { closePanel, openFilePreview, tabOf, viewOfTab } from "../ui/state/panel.js";

Deno.test("git model: groups and XY codes", () => {
  const g = groupFiles([
    { path: "a", x: "M", y: "M" },
    { path: "b", x: " ", y: "D" },
    { path: "c", x: "?", y: "?" },
    { path: "d", x: "U", y: "U" },
    { path: "e", x: "R", y: " ", origPath: "old" },
  ]);
  assertEquals(g.staged.map((f) => f.path), ["a", "e"]);
  assertEquals(g.unstaged.map((f) => f.path), ["a", "b"]);
  assertEquals(g.untracked.map((f) => f.path), ["c"]);
  assertEquals(g.conflict.map((f) => f.path), ["d"]);
  assertEquals(xyCode({ path: "b", x: " ", y: "D" }), "·D");
  assertEquals(xyCode({ path: "c", x: "?", y: "?" }), "??");
});

Deno.test("git model: graph shapes follow the layout (dots per row, curves between lanes)", () => {
  const { rows } = layoutGraph([
    { hash: "m", parents: ["a", "b"] },
    { hash: "b", parents: ["a"] },
    { hash: "a", parents: [] },
  ]);
  const { dots, paths } = graphShapes(rows);
  assertEquals(dots.map((d) => [d.cx, d.cy]), [
    [LANE_W / 2, ROW_H / 2],
    [LANE_W * 1.5, ROW_H * 1.5],
    [LANE_W / 2, ROW_H * 2.5],
  ]);
  // m → a straight down, m → b curving right, b → a curving back, and a's lane passing by b.
  assertEquals(paths.length, 4);
  assert(paths.some((p) => p.d === `M${LANE_W / 2} ${ROW_H / 2}V${ROW_H * 1.5}`));
  assertEquals(paths.filter((p) => p.d.includes("C")).length, 2);
});

Deno.test("panel tabs: Git / Files / Sub-agents always open; Preview and Diff need one shown", () => {
  assertEquals(viewOfTab("git", "t1"), { kind: "git", taskId: "t1", path: "" });
  assertEquals(viewOfTab("files", "t1"), { kind: "files", taskId: "t1", path: "" });
  assertEquals(viewOfTab("subagents", "t1"), { kind: "subagents", taskId: "t1", path: "" });
  assertEquals(viewOfTab("preview", "t1"), null);
  assertEquals(viewOfTab("diff", "t1"), null);
  assertEquals(tabOf({ kind: "file", taskId: "t", path: "x" }), "preview");
  assertEquals(tabOf({ kind: "subagent", taskId: "t", path: "x", runId: "r" }), "subagents");
  assertEquals(tabOf({ kind: "diff", taskId: "t", path: "x", callId: "c" }), "diff");

  // A file shown for a task: its Preview tab returns to it (and only in that task).
  openFilePreview("t1", "src/a.ts");
  assertEquals(viewOfTab("preview", "t1"), { kind: "file", taskId: "t1", path: "src/a.ts" });
  assertEquals(viewOfTab("preview", "t2"), null);
  closePanel();
});
