/**
 * The MCP servers as the server reports them (`mcp.list`, then pushes on topic `mcp`):
 * the overview (servers, their state, tools and last failure; a corrupt file), the
 * running tests, and the actions of the MCP page. A server that fails during a turn
 * is announced as an error notice (the toast) and marked on its row.
 *
 * @typedef {import("../../protocol/index.ts").McpOverview} McpOverview
 * @typedef {import("../../protocol/index.ts").McpServerConfig} McpServerConfig
 * @typedef {import("../../protocol/index.ts").McpTestResult} McpTestResult
 * @typedef {import("../../protocol/index.ts").McpImportCandidate} McpImportCandidate
 * @typedef {import("../../protocol/index.ts").McpWorkspaceOffer} McpWorkspaceOffer
 * @typedef {{running: true} | McpTestResult | {ok: false, error: string, phase: "config"}} TestState
 */
import { computed, effect, signal } from "@preact/signals";
import { MCP_TOPIC, taskTopic } from "../../protocol/index.ts";
import { connState, errorCode, onSync, onTopic, request } from "./connection.js";
import { notifyError, showNotice } from "./ui.js";
import { currentId, currentTask } from "./tasks.js";

export const mcpOverview = signal(/** @type {McpOverview|null} */ (null));
/** Test / restart results by server id (shown under its row). */
export const mcpTests = signal(/** @type {Map<string, TestState>} */ (new Map()));
/** How many servers failed (a dot on the sidebar's MCP entry). */
export const mcpFailing = computed(() =>
  (mcpOverview.value?.servers ?? []).filter((s) => s.state === "failed").length +
  (mcpOverview.value?.fileError ? 1 : 0)
);
/** The add/edit form: null = closed, {server: null} = a new server. */
export const mcpForm = signal(/** @type {{server: McpServerConfig|null}|null} */ (null));
/** The import panel is open. */
export const mcpImportOpen = signal(false);

/** @typedef {import("../../protocol/index.ts").McpElicitation} McpElicitation */

/** Questions every client is shown (topic `mcp`). */
const everyoneQuestions = signal(/** @type {McpElicitation[]} */ ([]));
/** Questions shown to the viewers of a task, by task id (topic `task:<id>`). */
const taskQuestions = signal(/** @type {Map<string, McpElicitation[]>} */ (new Map()));

/**
 * Questions MCP servers wait for an answer to (elicitation) that this client is shown:
 * those of the open task, then everyone's. The first is shown as a form.
 */
export const mcpQuestions = computed(() => {
  const id = currentId.value;
  const mine = id ? taskQuestions.value.get(id) ?? [] : [];
  const seen = new Set(mine.map((q) => q.id));
  return [...mine, ...everyoneQuestions.value.filter((q) => !seen.has(q.id))];
});

/** @param {string} id @param {McpElicitation[]} list */
function setTaskQuestions(id, list) {
  const m = new Map(taskQuestions.value);
  if (list.length) m.set(id, list);
  else m.delete(id);
  taskQuestions.value = m;
}

/** @param {string|null} taskId the task being opened (its questions come too) */
async function loadQuestions(taskId) {
  try {
    const { list } = await request("mcp.elicitations", taskId ? { taskId } : {});
    everyoneQuestions.value = list.filter((q) => q.everyone);
    if (taskId) {
      setTaskQuestions(
        taskId,
        list.filter((q) => !q.everyone && q.taskIds.includes(taskId)),
      );
    }
  } catch (e) {
    if (errorCode(e) !== "disconnected") notifyError("mcp.error", e);
  }
}
// Questions asked while this client was away are fetched again on every (re)connection …
onSync((replayed) => {
  if (!replayed) void loadQuestions(currentId.value);
}, () => [MCP_TOPIC]);
// … and a task's when it is opened (they were shown only to its viewers). Only the task
// is followed: a reconnection that replayed what was missed fetches nothing again.
effect(() => {
  const id = currentId.value;
  if (id && connState.peek() === "open") void loadQuestions(id);
});
// The open task's questions (a client follows the topic of the task it shows).
onTopic(() => currentId.value ? taskTopic(currentId.value) : null, (ev) => {
  if (ev.kind === "mcpQuestions" && currentId.value) setTaskQuestions(currentId.value, ev.list);
});

/**
 * Answers a question: accept (with the values), decline or cancel. Null when sent, else
 * the server's reason (the form stays open).
 * @param {string} id @param {"accept"|"decline"|"cancel"} action
 * @param {Record<string, string|number|boolean>} [content]
 */
export async function answerQuestion(id, action, content) {
  try {
    await request("mcp.elicitationAnswer", content ? { id, action, content } : { id, action });
    everyoneQuestions.value = everyoneQuestions.value.filter((q) => q.id !== id);
    for (const [task, list] of taskQuestions.value) {
      if (list.some((q) => q.id === id)) setTaskQuestions(task, list.filter((q) => q.id !== id));
    }
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

export async function loadMcp() {
  try {
    mcpOverview.value = await request("mcp.list");
  } catch (e) {
    if (errorCode(e) !== "disconnected") notifyError("mcp.error", e);
  }
}

// After a reconnection whose missed `mcp` events were replayed, nothing is fetched again.
onSync((replayed) => {
  if (!replayed || !mcpOverview.value) void loadMcp();
}, () => [MCP_TOPIC]);
onTopic(MCP_TOPIC, (ev) => {
  if (ev.kind === "elicitations") everyoneQuestions.value = ev.list;
  else if (ev.kind === "overview") mcpOverview.value = ev.overview;
  else if (ev.kind === "failure") {
    showNotice("mcp.toast", `${ev.id} (${ev.phase}): ${ev.message}`);
  }
});

/** @param {string} id @param {TestState} st */
function setTest(id, st) {
  const m = new Map(mcpTests.value);
  m.set(id, st);
  mcpTests.value = m;
}

/**
 * Runs an op that returns the overview; returns an error message or null.
 * @param {() => Promise<McpOverview>} fn
 */
async function changing(fn) {
  try {
    mcpOverview.value = await fn();
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** @param {McpServerConfig} server @param {string|undefined} previousId */
export const saveServer = (server, previousId) =>
  changing(() => request("mcp.save", previousId ? { server, previousId } : { server }));
/** @param {string} id */
export const removeServer = (id) => changing(() => request("mcp.remove", { id }));
/** @param {string} id @param {boolean} enabled */
export const setServerEnabled = (id, enabled) =>
  changing(() => request("mcp.setEnabled", { id, enabled }));

/** @param {string} id @param {"test"|"restart"} how */
export async function testServer(id, how = "test") {
  if (connState.value !== "open") return;
  setTest(id, { running: true });
  try {
    setTest(id, await request(how === "test" ? "mcp.test" : "mcp.restart", { id }));
  } catch (e) {
    setTest(id, { ok: false, phase: "config", error: e instanceof Error ? e.message : String(e) });
  }
}

/** @param {string} text */
export const parseImport = (text) => request("mcp.parseImport", { text });
/** Other tools' configs on this machine, and the shown task's project `.mcp.json`. */
export const scanImports = () => {
  const projectPath = currentTask.value?.projectPath;
  return request("mcp.scanImports", projectPath ? { projectPath } : {});
};
/** @param {McpServerConfig[]} servers */
export async function importServers(servers) {
  const projectPath = currentTask.value?.projectPath;
  const r = await request("mcp.import", projectPath ? { servers, projectPath } : { servers });
  mcpOverview.value = r.overview;
  return r;
}

// ---------- a project's .mcp.json, offered once ----------

/** The shown task's project has a `.mcp.json` the user has not answered yet. */
export const workspaceOffer = signal(/** @type {McpWorkspaceOffer|null} */ (null));
let offerGen = 0;

/** @param {string|null} projectPath */
async function loadOffer(projectPath) {
  const gen = ++offerGen;
  if (!projectPath || connState.value !== "open") return void (workspaceOffer.value = null);
  try {
    const r = await request("mcp.workspace", { projectPath });
    if (gen === offerGen) workspaceOffer.value = r.offer;
  } catch (e) {
    if (gen === offerGen) workspaceOffer.value = null;
    if (errorCode(e) !== "disconnected" && errorCode(e) !== "store_unavailable") {
      notifyError("mcp.error", e);
    }
  }
}

effect(() => {
  const path = currentTask.value?.projectPath ?? null;
  if (connState.value === "open") void loadOffer(path);
});

/** Imports the offered servers (trusting this file once) or dismisses the offer. */
export async function decideWorkspace(/** @type {"import"|"dismiss"} */ decision) {
  const offer = workspaceOffer.value;
  if (!offer) return;
  try {
    const r = await request("mcp.workspaceDecide", { projectPath: offer.projectPath, decision });
    mcpOverview.value = r.overview;
    workspaceOffer.value = null;
  } catch (e) {
    notifyError("mcp.error", e);
  }
}

/**
 * Starts an OAuth sign-in of an http server. The URL opens in a new window (the desktop
 * window or a browser tab) and is also returned, so a phone that blocks the pop-up
 * gets it as a link. Null: the stored sign-in still works.
 * @param {string} id
 * @returns {Promise<{url: string|null, error: string|null}>}
 */
export async function startSignIn(id) {
  try {
    const { url } = await request("mcp.oauthStart", { id, origin: location.origin });
    if (url) globalThis.open?.(url, "_blank", "noopener");
    return { url, error: null };
  } catch (e) {
    return { url: null, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Signs out (the authorization server revokes the tokens when it can). */
export const signOut = (/** @type {string} */ id) =>
  changing(async () => {
    await request("mcp.oauthSignOut", { id });
    return await request("mcp.list");
  });
