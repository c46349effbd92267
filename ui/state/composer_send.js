/**
 * Sending from the composer: the text plus its uploaded attachments. While the task
 * runs the server queues the message (steering queue) instead of refusing it. On
 * success the view's draft is cleared and the prompt joins the ↑/↓ history; on
 * failure text and attachments come back.
 */
import { computed } from "@preact/signals";
import { LIMITS } from "../../protocol/index.ts";
import { connState } from "./connection.js";
import { sending, sendMessage } from "./actions.js";
import { attachments, readyIds, uploading } from "./attachments.js";
import { notePrompt } from "./prompt_history.js";
import { queue } from "./queue.js";
import { currentId, currentTask } from "./tasks.js";
import { draftProject } from "./projects.js";
import { composerText, draftSent } from "./ui.js";

/** The workspace of the shown view (its project, or null = the default workspace). */
export const viewWorkspace = computed(() =>
  currentId.value === null ? draftProject.value ?? null : currentTask.value?.projectPath ?? null
);

/** Why Send is unavailable now ("" = it is available). */
export const sendBlock = computed(() => {
  const text = composerText.value;
  if (connState.value !== "open") return "offline";
  if (sending.value) return "sending";
  if (uploading.value) return "uploading";
  if (attachments.value.some((c) => c.status === "error")) return "failed";
  if (text.length > LIMITS.messageChars) return "tooLong";
  if (!text.trim() && !attachments.value.length) return "empty";
  return "";
});

/** Sends the composer content (no-op when {@link sendBlock} says it cannot). */
export async function sendComposer() {
  if (sendBlock.value) return;
  const key = currentId.value ?? "";
  const ws = viewWorkspace.value;
  const text = composerText.value;
  const chips = attachments.value;
  const ids = readyIds.value;
  attachments.value = [];
  const r = await sendMessage(ids);
  if (!r) {
    if (!attachments.value.length) attachments.value = chips;
    return;
  }
  notePrompt(ws, text);
  if (r.queued && currentId.value === r.taskId && !queue.value.some((q) => q.id === r.queued.id)) {
    queue.value = [...queue.value, r.queued];
  }
  draftSent(key, currentId.value ?? "");
}
