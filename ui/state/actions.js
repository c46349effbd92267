/**
 * User actions on tasks: send (creating the task from the draft with the options
 * chosen there), rename, pin and delete. Failures become error notices; a failed
 * send gives its text back.
 */
import { bottomRequest } from "./overlays.js";
import { signal } from "@preact/signals";
import { LIMITS } from "../../protocol/index.ts";
import { connState, request } from "./connection.js";
import { clearDraftOptions, takeDraftOptions } from "./run_actions.js";
import {
  currentId,
  leaveToDraft,
  removeTask,
  show,
  subscribe,
  upsertEntry,
  upsertTask,
} from "./tasks.js";
import { composerText, notifyError } from "./ui.js";
import { draftProjectArgs } from "./projects.js";
import { draftAssistantOption } from "./assistants.js";

/** True while a message is on its way (blocks a second send creating a second task). */
export const sending = signal(false);
let settled = Promise.resolve();
/** Resolves when the message on its way (if any) has its reply or its error. */
export const sendSettled = () => settled;

/**
 * Sends the composer text (with uploaded `attachments` ids): creates the task first
 * when in the draft view; while the task runs the server queues it (steering queue).
 * The text goes back into the composer if sending fails.
 * @param {string[]} [attachments]
 * @returns {Promise<{taskId: string, queued: any, command: any} | null>} null when not sent;
 *   `command`: what a slash command answered (protocol CommandReply)
 */
export async function sendMessage(attachments = []) {
  const text = composerText.value.replace(/^\s*\n/, "").trimEnd();
  if ((!text.trim() && !attachments.length) || text.length > LIMITS.messageChars) return null;
  if (sending.value || connState.value !== "open") return null;
  const atts = attachments.length ? { attachments } : {};
  const id = currentId.value;
  sending.value = true;
  /** @type {() => void} */
  let done = () => {};
  settled = new Promise((resolve) => (done = resolve));
  composerText.value = "";
  try {
    if (id === null) {
      const chosen = { ...takeDraftOptions(), ...draftAssistantOption() };
      const options = Object.keys(chosen).length ? chosen : null;
      const r = await request("tasks.create", {
        message: text,
        ...atts,
        ...(options ? { options } : {}),
        ...draftProjectArgs(),
      });
      clearDraftOptions();
      upsertTask(r.task);
      if (currentId.value === null) {
        show(r.task.id);
        if (r.entry) upsertEntry(r.entry);
        subscribe(r.task.id);
      }
      return { taskId: r.task.id, queued: null, command: r.command ?? null };
    } else {
      bottomRequest.value++; // what the user just sent is what they want to see
      const r = await request("task.send", { id, text, ...atts });
      if (currentId.value === id && r?.entry) upsertEntry(r.entry);
      return { taskId: id, queued: r?.queued ?? null, command: r?.command ?? null };
    }
  } catch (e) {
    if (!composerText.value) composerText.value = text;
    notifyError(id === null ? "error.create" : "error.send", e);
    return null;
  } finally {
    sending.value = false;
    done();
  }
}

/**
 * @param {string} id
 * @param {string} title
 * @returns {Promise<boolean>} whether the task was renamed
 */
export async function renameTask(id, title) {
  const clean = title.replace(/\s+/g, " ").trim().slice(0, LIMITS.titleChars);
  if (!clean) return false;
  try {
    const r = await request("tasks.rename", { id, title: clean });
    upsertTask(r.task);
    return true;
  } catch (e) {
    notifyError("error.rename", e);
    return false;
  }
}

/**
 * @param {string} id
 * @param {boolean} pinned
 */
export async function pinTask(id, pinned) {
  try {
    const r = await request("tasks.pin", { id, pinned });
    upsertTask(r.task);
  } catch (e) {
    notifyError("error.pin", e);
  }
}

/** @param {string} id */
export async function deleteTask(id) {
  try {
    await request("tasks.delete", { id });
    removeTask(id);
    if (currentId.value === id) leaveToDraft();
  } catch (e) {
    notifyError("error.delete", e);
  }
}
