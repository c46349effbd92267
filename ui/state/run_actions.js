/**
 * Actions on the shown task's run and options: stop, continue (after max steps, an
 * error or a stop), and the per-task model / effort / approval choices. In the draft
 * view the choices are kept here and sent with `tasks.create`.
 *
 * @typedef {import("./options.js").Options} Options
 */
import { computed, signal } from "@preact/signals";
import { request } from "./connection.js";
import { effectiveEffort, effectiveOptions, findModel } from "./options.js";
import { providerList, sysDefaults } from "./models.js";
import { currentId, currentTask, runState, upsertTask } from "./tasks.js";
import { notifyError } from "./ui.js";

/** Choices made in the draft view (null = system default). */
export const draftOptions = signal(
  /** @type {Options} */ ({
    model: null,
    effort: null,
    approval: null,
  }),
);

/** True from a Stop click until the server confirmed the run ended. */
export const stopping = signal(false);
/** True while a Continue/Retry request is on its way. */
export const continuing = signal(false);

/** Whether the shown task is running (a run is live or the task says so). */
export const isRunning = computed(() => {
  if (currentId.value === null) return false;
  const status = currentTask.value?.status;
  return runState.value !== null || status === "running" || status === "waiting";
});

/** The shown view's choices: the task's settings, or the draft's. */
export const chosenOptions = computed(() => {
  if (currentId.value === null) return draftOptions.value;
  const s = currentTask.value?.settings;
  return { model: s?.model ?? null, effort: s?.effort ?? null, approval: s?.approval ?? null };
});

/**
 * The options in effect for the shown view (unset ones from the system defaults); the
 * effort is one the model offers (as the server will send it) once the model is known.
 */
export const activeOptions = computed(() => {
  const opts = effectiveOptions(chosenOptions.value, sysDefaults.value);
  const model = findModel(providerList.value, opts.model)?.model;
  return model ? { ...opts, effort: effectiveEffort(model, opts.effort) } : opts;
});

/**
 * Changes one option: for a task via `task.setOptions` (never the system default),
 * for the draft locally.
 * @template {keyof Options} K
 * @param {K} key
 * @param {Options[K]} value
 */
export async function setOption(key, value) {
  const id = currentId.value;
  if (id === null) {
    draftOptions.value = { ...draftOptions.value, [key]: value };
    return;
  }
  try {
    const r = await request("task.setOptions", { id, [key]: value });
    if (r?.task) upsertTask(r.task);
  } catch (e) {
    notifyError("run.error.options", e);
  }
}

/**
 * Changes the shell sandbox level of a task (the system level stays as it is).
 * @param {string} id
 * @param {"off"|"workspace-write"|"read-only"} level
 */
export async function setTaskSandbox(id, level) {
  try {
    const r = await request("task.setOptions", { id, sandbox: level });
    if (r?.task) upsertTask(r.task);
  } catch (e) {
    notifyError("run.error.options", e);
  }
}

/** Options to send with `tasks.create` (only the ones chosen), then clears them. */
export function takeDraftOptions() {
  const o = draftOptions.value;
  /** @type {Partial<Options>} */
  const out = {};
  if (o.model) out.model = o.model;
  if (o.effort) out.effort = o.effort;
  if (o.approval) out.approval = o.approval;
  return Object.keys(out).length ? out : null;
}

/** Resets the draft's choices (after its task was created). */
export function clearDraftOptions() {
  draftOptions.value = { model: null, effort: null, approval: null };
}

/** Stops the shown task's run. */
export async function stopRun() {
  const id = currentId.value;
  if (id === null || stopping.value) return;
  stopping.value = true;
  try {
    await request("task.stop", { id });
  } catch (e) {
    notifyError("run.error.stop", e);
  } finally {
    stopping.value = false;
  }
}

/** Runs the agent again on the shown task's history (Retry / Continue). */
export async function continueRun() {
  const id = currentId.value;
  if (id === null || continuing.value) return;
  continuing.value = true;
  try {
    await request("task.continue", { id });
  } catch (e) {
    notifyError("run.error.continue", e);
  } finally {
    continuing.value = false;
  }
}
