/**
 * Automations as the server reports them (`automations.list`, then pushes on topic
 * `automations`), their recent runs, and the page's actions. Each action returns an
 * error message, or null when it worked.
 *
 * @typedef {import("../../protocol/index.ts").Automation} Automation
 * @typedef {import("../../protocol/index.ts").AutomationRun} AutomationRun
 * @typedef {import("../../protocol/index.ts").OpArgs} OpArgs
 */
import { signal } from "@preact/signals";
import { AUTOMATIONS_TOPIC } from "../../protocol/index.ts";
import { errorCode, onSync, onTopic, request } from "./connection.js";
import { notifyError } from "./ui.js";

export const automations = signal(/** @type {Automation[]|null} */ (null));
/** Recent runs of every automation, newest first. */
export const automationRuns = signal(/** @type {AutomationRun[]} */ ([]));
/** The create/edit form: null = closed, {automation: null} = a new one. */
export const automationForm = signal(/** @type {{automation: Automation|null}|null} */ (null));

const RUNS_SHOWN = 50;

export async function loadAutomations() {
  try {
    const [{ automations: list }, { runs }] = await Promise.all([
      request("automations.list"),
      request("automations.runs", { limit: RUNS_SHOWN }),
    ]);
    automations.value = list;
    automationRuns.value = runs;
  } catch (e) {
    if (errorCode(e) !== "disconnected") notifyError("automations.error", e);
  }
}

// Only a page that loaded them follows them (the topic is joined by `automations.list`).
onSync((replayed) => {
  if (automations.value && !replayed) void loadAutomations();
}, () => (automations.value ? [AUTOMATIONS_TOPIC] : []));

onTopic(AUTOMATIONS_TOPIC, (ev) => {
  if (!automations.value) return;
  if (ev.kind === "upsert") {
    const list = automations.value;
    const i = list.findIndex((a) => a.id === ev.automation.id);
    automations.value = i < 0
      ? [...list, ev.automation]
      : list.map((a) => (a.id === ev.automation.id ? ev.automation : a));
  } else if (ev.kind === "delete") {
    automations.value = automations.value.filter((a) => a.id !== ev.id);
    automationRuns.value = automationRuns.value.filter((r) => r.automationId !== ev.id);
  } else {
    const rest = automationRuns.value.filter((r) => r.id !== ev.run.id);
    automationRuns.value = [ev.run, ...rest].sort((a, b) => b.startedAt - a.startedAt)
      .slice(0, RUNS_SHOWN);
  }
});

/** @param {unknown} e */
const message = (e) => (e instanceof Error ? e.message : String(e));

/** @param {OpArgs["automations.create"]} args */
export async function createAutomation(args) {
  try {
    await request("automations.create", args);
    return null;
  } catch (e) {
    return message(e);
  }
}

/** @param {OpArgs["automations.update"]} args */
export async function updateAutomation(args) {
  try {
    await request("automations.update", args);
    return null;
  } catch (e) {
    return message(e);
  }
}

/** @param {string} id */
export async function deleteAutomation(id) {
  try {
    await request("automations.delete", { id });
    return null;
  } catch (e) {
    return message(e);
  }
}

/** @param {string} id */
export async function runAutomationNow(id) {
  try {
    await request("automations.runNow", { id });
    return null;
  } catch (e) {
    return message(e);
  }
}
