/**
 * Sending from the composer: the text plus its uploaded attachments. While the task
 * runs the server queues the message (steering queue) instead of refusing it. On
 * success the view's draft is cleared and the prompt joins the ↑/↓ history; on
 * failure text and attachments come back.
 */
import { computed, signal } from "@preact/signals";
import { LIMITS, parseSlash } from "../../protocol/index.ts";
import { connState } from "./connection.js";
import { sending, sendMessage, sendSettled } from "./actions.js";
import { attachments, readyIds, uploading } from "./attachments.js";
import { notePrompt } from "./prompt_history.js";
import { queue } from "./queue.js";
import { currentId, currentTask, sortedTasks } from "./tasks.js";
import { draftProject, draftWorktree } from "./projects.js";
import { composerText, draftSent, markDraftDirty } from "./ui.js";
import { clearAsk, commandNotice, helpOpen, loadCommands, showReply } from "./commands.js";
import { setOption } from "./run_actions.js";

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

/**
 * What the UI does itself before a slash command goes to the server: `/help` opens
 * its dialog, `/clear` asks first, and in the new-task view (no task yet) `/plan`
 * without a task sets the draft's mode and `/clear` says there is nothing to clear.
 * Returns true when the message is not to be sent (now).
 * @param {string} text
 */
function handledHere(text) {
  const cmd = parseSlash(text);
  if (!cmd) return false;
  const draft = currentId.value === null;
  const done = (/** @type {string} */ key) => {
    composerText.value = "";
    markDraftDirty();
    commandNotice.value = { key };
    return true;
  };
  if (cmd.name === "help") {
    loadCommands(true);
    helpOpen.value = true;
    composerText.value = "";
    markDraftDirty();
    return true;
  }
  if (cmd.name === "clear") {
    if (draft) return done("cmd.clear.draft");
    clearAsk.value = true;
    return true;
  }
  if (cmd.name === "plan" && draft && !cmd.args) {
    setOption("approval", "plan");
    return done("cmd.reply.planOn");
  }
  return false;
}

/**
 * A new task about to share its folder with a task still running there (neither in a
 * worktree of its own): the two would edit the same files at once, so the user is asked
 * first (own branch, same folder, or not yet). Holds the folder's path while asking.
 */
export const sameFolderAsk = signal(/** @type {string|null} */ (null));

/** The draft's folder when another task is at work in it, else null. */
function busyFolder() {
  const folder = draftProject.value;
  if (currentId.value !== null || !folder || draftWorktree.value) return null;
  const busy = sortedTasks.value.some((t) =>
    t.projectPath === folder && !t.settings.worktree &&
    (t.status === "running" || t.status === "waiting")
  );
  return busy ? folder : null;
}

/**
 * Sends the composer content (no-op when {@link sendBlock} says it cannot).
 * @param {{confirmed?: boolean, sameFolder?: boolean}} [opts] `confirmed`: the user agreed
 *   to `/clear`; `sameFolder`: the user chose to share a busy folder
 */
export async function sendComposer(opts = {}) {
  // Enter pressed again before the last message's reply (typing fast while a run
  // streams) sends once that reply is in, rather than being dropped.
  if (sendBlock.value === "sending") await sendSettled();
  if (sendBlock.value) return;
  commandNotice.value = null;
  if (!opts.confirmed && handledHere(composerText.value)) return;
  if (!opts.sameFolder && busyFolder()) {
    sameFolderAsk.value = busyFolder();
    return;
  }
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
  if (r.command) showReply(r.command);
  if (r.queued && currentId.value === r.taskId && !queue.value.some((q) => q.id === r.queued.id)) {
    queue.value = [...queue.value, r.queued];
  }
  draftSent(key, currentId.value ?? "");
}
