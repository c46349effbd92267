/**
 * The timeline's delta flush in a browser-like page: deltas wait for an animation
 * frame, or for a timer while the page is hidden; each is cancelled as what it is (a
 * timer id passed to cancelAnimationFrame would cancel someone else's frame and leave
 * the timer running).
 */
import { assertEquals } from "./helpers/assert.ts";
import type { Entry } from "../protocol/index.ts";

const frames = new Map<number, FrameRequestCallback>();
const cancelledFrames: number[] = [];
let nextFrame = 1;
const page = { visibilityState: "visible" as DocumentVisibilityState };
// Installed before the module loads (it may look for them once, at load time).
Object.assign(globalThis, {
  requestAnimationFrame: (fn: FrameRequestCallback) => {
    frames.set(nextFrame, fn);
    return nextFrame++;
  },
  cancelAnimationFrame: (id: number) => {
    cancelledFrames.push(id);
    frames.delete(id);
  },
  document: page,
});
const { applyTimelineEvent, entries, flushDeltas, resetTimeline } = await import(
  "../ui/state/timeline.js"
);

const streaming: Entry = {
  id: "e1",
  taskId: "t1",
  pos: 1,
  role: "assistant",
  parts: [{ type: "text", text: "" }],
  status: "streaming",
  createdAt: 0,
  updatedAt: 0,
  meta: {},
};
const delta = (text: string) => ({
  kind: "delta" as const,
  entryId: "e1",
  index: 0,
  type: "text" as const,
  text,
});
const shown = () => entries.value[0]?.parts[0]?.text;

Deno.test("a hidden page's flush timer is cleared as a timer, not as a frame", () => {
  cancelledFrames.length = 0;
  page.visibilityState = "hidden";
  resetTimeline({ entries: [streaming], total: 1, run: null });
  applyTimelineEvent(delta("a"));
  assertEquals(frames.size, 0, "no frame is asked for while hidden");
  flushDeltas();
  assertEquals(shown(), "a");
  // The 250 ms timer is gone (the test's op sanitizer fails on a timer left running).
  assertEquals(cancelledFrames, []);
  page.visibilityState = "visible";
});

Deno.test("a visible page's frame is cancelled when the timeline is reset", () => {
  cancelledFrames.length = 0;
  resetTimeline({ entries: [streaming], total: 1, run: null });
  applyTimelineEvent(delta("b"));
  assertEquals(frames.size, 1);
  const [id] = frames.keys();
  resetTimeline(null);
  assertEquals(cancelledFrames, [id]);
  assertEquals(entries.value, []);
});

Deno.test("a frame applies the buffered deltas once", () => {
  resetTimeline({ entries: [streaming], total: 1, run: null });
  applyTimelineEvent(delta("c"));
  applyTimelineEvent(delta("d"));
  assertEquals(frames.size, 1);
  const [[id, fn]] = frames;
  frames.delete(id);
  fn(0);
  assertEquals(shown(), "cd");
  resetTimeline(null);
});
