/**
 * Carrying history and configuration from the UI: export a task (a file download),
 * import an export file or another tool's sessions, download / restore the
 * configuration backup, WebDAV upload / restore. Files go up through `POST /api/uploads`
 * (so they are not limited by the WebSocket frame size) and the op names the upload.
 *
 * @typedef {import("../../protocol/index.ts").ImportReport} ImportReport
 * @typedef {import("../../protocol/index.ts").ForeignSourceInfo} ForeignSourceInfo
 * @typedef {import("../../protocol/index.ts").ForeignSource} ForeignSource
 * @typedef {import("../../protocol/index.ts").BackupRestoreReport} BackupRestoreReport
 * @typedef {"import"|"backup"} CarryArea where an outcome is shown
 * @typedef {{kind: "import", report: ImportReport, label: string}
 *   | {kind: "restore", report: BackupRestoreReport}
 *   | {kind: "uploaded", bytes: number}
 *   | {kind: "error", message: string}} CarryResult
 * @typedef {CarryResult & {area: CarryArea}} CarryOutcome
 */
import { signal } from "@preact/signals";
import { request } from "./connection.js";
import { notifyError } from "./ui.js";

/** Sessions found per foreign tool (null until asked). */
export const carrySources = signal(/** @type {ForeignSourceInfo[]|null} */ (null));
/** What is running now ("" = nothing): "file", "backup", "restore", "webdav", or a source. */
export const carryBusy = signal("");
/** The outcome of the last import, restore or upload (shown under the buttons). */
export const carryOutcome = signal(/** @type {CarryOutcome|null} */ (null));

/**
 * Saves text as a file download.
 * @param {string} name
 * @param {string} mime
 * @param {string} content
 */
export function downloadText(name, mime, content) {
  saveUrl(URL.createObjectURL(new Blob([content], { type: mime })), name);
}

/**
 * Saves an object URL as a file download (then frees it).
 * @param {string} url
 * @param {string} name
 */
function saveUrl(url, name) {
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Exports tasks (one, or every one) as Markdown or JSON and downloads the file.
 * @param {{taskIds?: string[], all?: boolean}} sel
 * @param {"md"|"json"} format
 */
export async function exportTasks(sel, format) {
  const q = new URLSearchParams({ format });
  if (sel.all) q.set("all", "1");
  for (const id of sel.taskIds ?? []) q.append("task", id);
  try {
    // Over HTTP (not the WebSocket): an export with attachments may be large.
    const res = await fetch(`/api/export?${q}`);
    if (!res.ok) {
      const body = await res.json().catch(() => null);
      throw new Error(body?.error?.message ?? `HTTP ${res.status}`);
    }
    const name = res.headers.get("content-disposition")?.match(/filename="([^"]+)"/)?.[1] ??
      `reinagent-export.${format}`;
    const url = URL.createObjectURL(await res.blob());
    saveUrl(url, name);
  } catch (e) {
    notifyError("carry.exportFailed", e);
  }
}

/**
 * Uploads a file to the upload store; resolves with its id.
 * @param {File} file
 * @returns {Promise<string>}
 */
async function uploadFile(file) {
  const q = new URLSearchParams({ name: file.name || "import.json", mime: "application/json" });
  const res = await fetch(`/api/uploads?${q}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: file,
  });
  const body = await res.json().catch(() => null);
  if (res.status !== 201 || !body?.attachment?.id) {
    throw new Error(body?.error?.message ?? `HTTP ${res.status}`);
  }
  return body.attachment.id;
}

/**
 * Runs one carry action with the busy flag and records its outcome.
 * @param {string} busy
 * @param {CarryArea} area
 * @param {() => Promise<CarryResult>} fn
 */
async function run(busy, area, fn) {
  carryBusy.value = busy;
  carryOutcome.value = null;
  try {
    carryOutcome.value = { ...await fn(), area };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    carryOutcome.value = { kind: "error", message, area };
  } finally {
    carryBusy.value = "";
  }
}

/** @param {File} file a ReinAgent JSON export */
export const importExportFile = (file) =>
  run("file", "import", async () => ({
    kind: "import",
    label: file.name,
    report: await request("carry.import", { upload: await uploadFile(file) }),
  }));

/** Asks the server how many sessions each tool has on its machine. */
export async function loadSources() {
  try {
    carrySources.value = (await request("carry.sources", {})).sources;
  } catch (e) {
    notifyError("carry.sourcesFailed", e);
  }
}

/** @param {ForeignSourceInfo} s */
export const importFromSource = (s) =>
  run(s.source, "import", async () => {
    const report = await request("carry.importFrom", { source: s.source });
    return { kind: "import", label: s.label, report };
  }).then(loadSources);

/** @param {boolean} includeKeys */
export async function downloadBackup(includeKeys) {
  try {
    const r = await request("backup.export", { includeKeys });
    downloadText(r.fileName, "application/json", r.content);
  } catch (e) {
    notifyError("carry.backupFailed", e);
  }
}

/** @param {File} file a backup */
export const restoreBackupFile = (file) =>
  run("restore", "backup", async () => ({
    kind: "restore",
    report: await request("backup.restore", { upload: await uploadFile(file) }),
  }));

/**
 * @param {"upload"|"restore"} action
 * @param {{url: string, username: string, password: string, includeKeys: boolean}} f
 */
export const webdav = (action, f) =>
  run("webdav", "backup", async () => {
    const r = await request("backup.webdav", {
      action,
      url: f.url.trim(),
      ...(f.username ? { username: f.username } : {}),
      ...(f.password ? { password: f.password } : {}),
      includeKeys: f.includeKeys,
    });
    return r.restored
      ? { kind: "restore", report: r.restored }
      : { kind: "uploaded", bytes: r.bytes };
  });
