/**
 * Slash commands in the UI: the `/` menu's list (from the server, per workspace), the
 * notice a command answers with, the help and clear dialogs, and the goal chip's
 * actions. The server expands and runs commands when a message is sent; the UI only
 * handles what needs the screen: `/help` (a dialog), the confirmation of `/clear`, and
 * `/plan` or `/clear` in the new-task view, where there is no task yet.
 *
 * @typedef {import("../../protocol/index.ts").CommandInfo} CommandInfo
 * @typedef {import("../../protocol/index.ts").CommandProblem} CommandProblem
 * @typedef {import("../../protocol/index.ts").CommandReply} CommandReply
 */
import { computed, effect, signal } from "@preact/signals";
import { BUILTIN_COMMAND_NAMES } from "../../protocol/index.ts";
import { t } from "../i18n/index.js";
import { connState, request } from "./connection.js";
import { currentId, upsertTask } from "./tasks.js";
import { draftProject } from "./projects.js";
import { notifyError } from "./ui.js";

/** `commands.list` args of the shown view: its task, or the draft's project. */
export const scopeArgs = computed(() =>
  currentId.value !== null ? { id: currentId.value } : { projectPath: draftProject.value ?? null }
);

/** Built-ins, known before the list arrives (so the menu opens at once). */
const FALLBACK = BUILTIN_COMMAND_NAMES.map((name) => /** @type {CommandInfo} */ ({
  name,
  source: "builtin",
  description: "",
}));

export const commandList = signal(
  /** @type {{key: string, at: number, commands: CommandInfo[], problems: CommandProblem[]}} */ ({
    key: "",
    at: 0,
    commands: [],
    problems: [],
  }),
);

/** The commands the menu offers for the shown view. */
export const menuCommands = computed(() =>
  commandList.value.key === JSON.stringify(scopeArgs.value) && commandList.value.commands.length
    ? commandList.value.commands
    : FALLBACK
);

const FRESH_MS = 15_000;

/** The last attempt (also a failed one: it is not retried on every key). */
let tried = { key: "", at: 0 };

/** Loads the view's commands (cached a little: files may change while one types). */
export async function loadCommands(force = false) {
  const args = scopeArgs.value;
  const key = JSON.stringify(args);
  if (connState.value !== "open") return; // the connection banner already says so
  if (!force && tried.key === key && Date.now() - tried.at < FRESH_MS) return;
  tried = { key, at: Date.now() };
  try {
    const r = await request("commands.list", args);
    if (JSON.stringify(scopeArgs.value) === key) {
      commandList.value = { key, at: Date.now(), commands: r.commands, problems: r.problems };
    }
  } catch (e) {
    notifyError("cmd.error.list", e);
  }
}

/** @param {CommandInfo} c a built-in's description in the reader's language */
export function describe(c) {
  return c.source === "builtin" ? t(/** @type {any} */ (`cmd.desc.${c.name}`)) : c.description;
}

/** The line a command answered with (above the composer until dismissed or typing). */
export const commandNotice = signal(
  /** @type {{key: string, params?: Record<string, unknown>}|null} */ (null),
);

// A notice belongs to the view it was given in.
effect(() => {
  void currentId.value;
  commandNotice.value = null;
});

/** @param {CommandReply} reply */
export function showReply(reply) {
  commandNotice.value = { key: `cmd.reply.${reply.code}`, params: reply.params };
}

export const helpOpen = signal(false);
/** True while "Clear the conversation?" asks. */
export const clearAsk = signal(false);

/**
 * The goal chip's actions (`task.setGoal`).
 * @param {{paused?: boolean, text?: null}} change
 */
export async function changeGoal(change) {
  const id = currentId.value;
  if (id === null) return;
  commandNotice.value = null; // e.g. "Goal set" no longer describes it
  try {
    const r = await request("task.setGoal", { id, ...change });
    upsertTask(r.task);
  } catch (e) {
    notifyError("goal.error", e);
  }
}
