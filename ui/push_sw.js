/**
 * Web Push in the service worker: shows a notification for each push message from
 * ReinAgent's server and opens that task on a tap. A classic script, so the app's
 * service worker can `importScripts("/push_sw.js")`; registered alone, it is a
 * complete service worker too (push only, no caching).
 *
 * The payload (server/notify/notify_center.ts `PushPayload`): {v: 1, id, kind:
 * "waiting"|"finished"|"failed", reason, taskId, taskTitle, at, url: "#/t/<id>"}.
 */
// @ts-nocheck: service-worker globals (self.registration, clients) are not in the page's lib

(() => {
  const WORDS = {
    en: {
      approval: "Needs your approval",
      question: "Has a question for you",
      finished: "Finished",
      failed: "Failed",
      merged: "Its branch was merged",
      kept: "Its branch was kept",
      discarded: "Its branch was discarded",
      test: "Notifications work on this device.",
    },
    zh: {
      approval: "等待你的批准",
      question: "有问题要问你",
      finished: "已完成",
      failed: "失败",
      merged: "它的分支已合并",
      kept: "它的分支已保留",
      discarded: "它的分支已丢弃",
      test: "本设备的通知工作正常。",
    },
  };

  /** The words of a notification, in the browser's language. */
  function notificationOf(p) {
    const w = String(self.navigator.language || "").toLowerCase().startsWith("zh")
      ? WORDS.zh
      : WORDS.en;
    if (!p.taskId) return { title: "ReinAgent", body: w.test };
    const what = p.kind === "waiting"
      ? (p.reason === "question" ? w.question : w.approval)
      : p.kind === "failed"
      ? w.failed
      : p.kind === "branch"
      ? (w[p.branch && p.branch.action] || w.kept)
      : w.finished;
    return { title: String(p.taskTitle || "ReinAgent").slice(0, 120), body: what };
  }

  /** Exported for tests through the worker global. */
  self.reinagentNotificationOf = notificationOf;

  self.addEventListener("push", (event) => {
    let p;
    try {
      p = event.data ? event.data.json() : null;
    } catch {
      p = null;
    }
    if (!p || p.v !== 1) return;
    event.waitUntil((async () => {
      const wins = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      // A page being looked at shows its own banner; a second notice would be noise.
      if (p.taskId && wins.some((c) => c.focused && c.visibilityState === "visible")) return;
      const n = notificationOf(p);
      await self.registration.showNotification(n.title, {
        body: n.body,
        tag: p.taskId ? `reinagent-${p.taskId}` : "reinagent-test",
        renotify: true,
        icon: "/favicon.svg",
        data: { taskId: p.taskId || "", url: p.url || "" },
      });
    })());
  });

  self.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const taskId = event.notification.data?.taskId || "";
    const target =
      new URL("/" + (taskId ? `#/t/${encodeURIComponent(taskId)}` : ""), self.location.origin)
        .href;
    event.waitUntil((async () => {
      const wins = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const win = wins.find((c) => new URL(c.url).origin === self.location.origin);
      if (win) {
        win.postMessage({ type: "reinagent.openTask", taskId });
        await win.focus();
        return;
      }
      await self.clients.openWindow(target);
    })());
  });

  // Alone (not imported by the app's worker): take over at once, nothing to cache.
  if (new URL(self.location.href).pathname === "/push_sw.js") {
    self.addEventListener("install", () => self.skipWaiting());
    self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
  }
})();
