/**
 * Assistants as the server reports them (`assistants.list`, then pushes on
 * topic `assistants`): the list, the global default, files that could not be used; the
 * draft's choice (sent with `tasks.create`) and the Assistants page's form. Choosing
 * an assistant applies its bound model / effort once — for a task on the server
 * (`task.setAssistant`), in the draft to the draft's options — and the user's later
 * choices win.
 *
 * @typedef {import("../../protocol/index.ts").Assistant} Assistant
 * @typedef {import("../../protocol/index.ts").AssistantList} AssistantList
 * @typedef {import("../../protocol/index.ts").AssistantInput} AssistantInput
 */
import { computed, effect, signal } from "@preact/signals";
import { ASSISTANTS_TOPIC, GENERAL_ASSISTANT_ID } from "../../protocol/index.ts";
import { errorCode, onSync, onTopic, request } from "./connection.js";
import { currentId, currentTask, upsertTask } from "./tasks.js";
import { draftOptions } from "./run_actions.js";
import { notifyError } from "./ui.js";

export const assistantList = signal(/** @type {AssistantList|null} */ (null));
/** The draft's explicit choice (null = the global default). */
export const draftAssistant = signal(/** @type {string|null} */ (null));
/** The page's form: null = closed; `mode` new (also a duplicate) or edit. */
export const assistantForm = signal(
  /** @type {{mode: "new"|"edit", assistant: AssistantInput}|null} */ (null),
);

/** The id the shown view uses: the task's own, else the draft's, else the global default. */
export const activeAssistantId = computed(() => {
  const def = assistantList.value?.defaultId ?? GENERAL_ASSISTANT_ID;
  if (currentId.value === null) return draftAssistant.value ?? def;
  return currentTask.value?.settings.assistantId ?? def;
});

/** The assistant the shown view uses, or null when it is unknown (not loaded, or gone). */
export const activeAssistant = computed(() =>
  assistantList.value?.assistants.find((a) => a.id === activeAssistantId.value) ?? null
);

export async function loadAssistants() {
  try {
    assistantList.value = await request("assistants.list");
  } catch (e) {
    // A damaged database is already told by the store banner; without a list the chip hides.
    const code = errorCode(e);
    if (code !== "disconnected" && code !== "store_unavailable") {
      notifyError("assistants.error", e);
    }
  }
}

// The first connection subscribes by listing (the topic is not one every client gets); a
// resumed one is subscribed again by `events.resume` and replays what it missed.
onSync((replayed) => {
  if (!replayed || !assistantList.value) void loadAssistants();
}, () => (assistantList.value ? [ASSISTANTS_TOPIC] : []));
onTopic(ASSISTANTS_TOPIC, (ev) => {
  if (ev.kind === "list") assistantList.value = ev.list;
});

/**
 * Runs an op that answers the list; returns an error message or null.
 * @param {() => Promise<AssistantList>} fn
 */
async function changing(fn) {
  try {
    assistantList.value = await fn();
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** @param {AssistantInput} assistant @param {"new"|"replace"} create */
export const saveAssistant = (assistant, create) =>
  changing(() => request("assistants.save", { assistant, create }));
/** @param {string} id */
export const deleteAssistant = (id) => changing(() => request("assistants.delete", { id }));
/** @param {string} id */
export const setDefaultAssistant = (id) => changing(() => request("assistants.setDefault", { id }));

/**
 * The chip's choice: for a task on the server (which applies the bindings once); in
 * the draft it is remembered, and the effect below applies the bindings to the draft.
 * @param {string} id
 */
export async function chooseAssistant(id) {
  const taskId = currentId.value;
  if (taskId === null) {
    draftAssistant.value = id;
    return;
  }
  try {
    const r = await request("task.setAssistant", { id: taskId, assistantId: id });
    if (r?.task) upsertTask(r.task);
  } catch (e) {
    notifyError("assistants.error", e);
  }
}

// The draft shows what the new task will start with: the bound model / effort of its
// assistant are applied to the draft's options once per draft and choice.
let appliedInDraft = /** @type {string|null} */ (null);
effect(() => {
  if (currentId.value !== null) {
    // The draft became a task (or another task is shown): its choice is done with.
    appliedInDraft = null;
    draftAssistant.value = null;
    return;
  }
  const a = activeAssistant.value;
  if (!a || appliedInDraft === a.id) return;
  appliedInDraft = a.id;
  const o = draftOptions.peek();
  if (a.model || a.effort) {
    draftOptions.value = {
      ...o,
      ...(a.model ? { model: a.model } : {}),
      ...(a.effort ? { effort: a.effort } : {}),
    };
  }
});

/** The draft's assistant for `tasks.create` options, or null for the global default. */
export function draftAssistantOption() {
  const id = draftAssistant.value;
  return id ? { assistant: id } : null;
}

/**
 * A blank form, or a copy of `a` (a duplicate gets a free id and "(copy)").
 * @param {Assistant|null} a
 * @param {"edit"|"duplicate"} [how]
 * @returns {AssistantInput}
 */
export function formOf(a, how = "edit") {
  if (!a) {
    return {
      id: "",
      name: "",
      description: "",
      icon: "",
      model: null,
      effort: null,
      skills: [],
      mcpServers: [],
      persona: "",
    };
  }
  const { builtin: _b, path: _p, ...rest } = a;
  if (how === "edit") return rest;
  const taken = new Set(assistantList.value?.assistants.map((x) => x.id) ?? []);
  let id = `${a.id}-copy`.slice(0, 48);
  for (let n = 2; taken.has(id); n++) id = `${a.id}-copy-${n}`.slice(0, 48);
  return { ...rest, id };
}
