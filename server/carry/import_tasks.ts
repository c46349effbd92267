/**
 * Writes checked tasks into the store, idempotently: ids are kept, so a task or entry
 * already here is left as it is and only what is missing is added (a second import of
 * the same file changes nothing). The whole import is one transaction. Attachments are
 * written into the upload store under their own ids (`uploads/<id>/data` + `meta.json`).
 */
import { fromBase64 } from "../../lib/bytes.ts";
import { join } from "../../lib/path.ts";
import type { Repos } from "../../store/store.ts";
import type { ExportedAttachment, ExportedTask, ImportReport } from "../../protocol/carry.ts";
import { CARRY_LIMITS } from "../../protocol/carry.ts";
import type { Attachment } from "../../protocol/composer.ts";
import { isImageMime, uploadDir } from "../composer/uploads_store.ts";
import { getSettings } from "../providers/catalog.ts";
import { bindOptions } from "../sessions/task_options.ts";

export function emptyReport(): ImportReport {
  return {
    tasksCreated: 0,
    tasksUpdated: 0,
    tasksSkipped: 0,
    entriesAdded: 0,
    attachmentsAdded: 0,
    filesRead: 0,
    problems: [],
    moreProblems: 0,
    taskIds: [],
  };
}

/** Adds problems to a report, keeping at most `CARRY_LIMITS.problems` listed. */
export function addProblems(report: ImportReport, problems: string[]): void {
  for (const p of problems) {
    if (report.problems.length < CARRY_LIMITS.problems) report.problems.push(p);
    else report.moreProblems++;
  }
}

/** Writes one attachment unless it is there already; true when written. */
async function writeAttachment(home: string, a: ExportedAttachment): Promise<boolean | string> {
  const dir = uploadDir(home, a.id);
  if (!dir) return `attachment ${a.name}: bad id`;
  if (await Deno.stat(join(dir, "meta.json")).then(() => true, () => false)) return false;
  const bytes = fromBase64(a.data);
  if (!bytes) return `attachment ${a.name}: its data is not base64`;
  if (bytes.length === 0) return `attachment ${a.name}: empty`;
  if (bytes.length > CARRY_LIMITS.attachmentBytes) return `attachment ${a.name}: too large`;
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  await Deno.writeFile(join(dir, "data"), bytes, { mode: 0o600 });
  const meta: Attachment = {
    id: a.id,
    name: a.name,
    mime: a.mime,
    size: bytes.length,
    kind: isImageMime(a.mime) ? "image" : "file",
    createdAt: a.createdAt || Date.now(),
  };
  // meta.json last: an upload without it does not exist, so a crash leaves nothing half-made.
  await Deno.writeTextFile(join(dir, "meta.json"), JSON.stringify(meta), { mode: 0o600 });
  return true;
}

/**
 * Imports the tasks into `repos`; adds to `report` (returned) what it did. The
 * attachments are written first (an upload nothing refers to is harmless), then every
 * task's rows in one transaction: a crash or a kill midway leaves the store as it was.
 * A task that fails is rolled back alone (a savepoint) and reported.
 */
export async function importTasks(
  repos: Repos,
  home: string,
  tasks: ExportedTask[],
  report: ImportReport = emptyReport(),
): Promise<ImportReport> {
  const problems: string[] = [];
  const attachments = new Map<ExportedTask, number>();
  for (const t of tasks) {
    let n = 0;
    for (const a of t.attachments) {
      try {
        const w = await writeAttachment(home, a);
        if (typeof w === "string") problems.push(`${t.title}: ${w}`);
        else if (w) n++;
      } catch (e) {
        problems.push(`${t.title}: attachment ${a.name} not written (${(e as Error).message})`);
      }
    }
    attachments.set(t, n);
  }
  repos.imports.tx(() => {
    for (const t of tasks) importOne(repos, t, attachments.get(t) ?? 0, report, problems);
  });
  repos.entries.flushSearchIndex();
  addProblems(report, problems);
  return report;
}

/** One task's rows, all or nothing; what happened is added to `report`. */
function importOne(
  repos: Repos,
  t: ExportedTask,
  attachments: number,
  report: ImportReport,
  problems: string[],
): void {
  let added = 0;
  const created = !repos.imports.taskExists(t.id);
  try {
    added = repos.imports.tx(() => {
      // Options not carried (the approval mode, sandbox) are this machine's defaults of
      // now, bound like a new task's: a later change of a default leaves the task as it is.
      if (created) {
        const settings = { ...t.settings, ...bindOptions(t.settings, getSettings(repos)) };
        repos.imports.insertTask({ ...t, settings });
      }
      const used = repos.imports.positions(t.id);
      let next = Math.max(0, ...used) + 1;
      let n = 0;
      for (const e of t.entries) {
        const owner = repos.imports.entryTask(e.id);
        if (owner === t.id) continue; // already imported
        if (owner !== null) {
          problems.push(`${t.title}: entry ${e.id} belongs to another task here; left out`);
          continue;
        }
        const pos = used.has(e.pos) ? next : e.pos;
        used.add(pos);
        next = Math.max(next, pos + 1);
        repos.entries.upsert({ ...e, taskId: t.id, pos });
        n++;
      }
      return n;
    });
  } catch (e) {
    problems.push(`${t.title}: not imported (${(e as Error).message})`);
    return;
  }
  report.entriesAdded += added;
  report.attachmentsAdded += attachments;
  if (created) report.tasksCreated++;
  else if (added > 0 || attachments > 0) report.tasksUpdated++;
  else report.tasksSkipped++;
  if (created || added > 0) report.taskIds.push(t.id);
}
