/**
 * Export and import of history, behind the `carry.*` ops and the CLI: an export as
 * Markdown or JSON, the import of a JSON export (from a path or an upload) and of the
 * sessions of Claude Code, Codex, opencode and pi (read-only on their files).
 */
import type { Repos } from "../../store/store.ts";
import {
  CARRY_LIMITS,
  type ExportFormat,
  FOREIGN_SOURCES,
  type ForeignSource,
  type ForeignSourceInfo,
  type ImportReport,
} from "../../protocol/carry.ts";
import { buildExport } from "./export.ts";
import { bundleMarkdown } from "./markdown.ts";
import { BundleError, checkBundle } from "./bundle_check.ts";
import { addProblems, emptyReport, importTasks } from "./import_tasks.ts";
import { defaultPath, findSessionFiles, readSessionFile, scanSources } from "./foreign/sources.ts";
import { sessionToTask } from "./foreign/session.ts";
import type { ExportedTask } from "../../protocol/carry.ts";

export { BundleError };

export interface ExportFile {
  fileName: string;
  mime: string;
  content: string;
  tasks: number;
}

const slug = (s: string) =>
  s.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(
    0,
    40,
  ) ||
  "task";

/** The file of an export: one task is named after its title, several "reinagent-export-DATE". */
export async function exportTasks(
  repos: Repos,
  home: string,
  sel: { taskIds?: string[]; all?: boolean },
  format: ExportFormat,
  now: () => number = Date.now,
): Promise<ExportFile & { skipped: string[] }> {
  const ids = sel.all ? repos.tasks.list().map((t) => t.id) : sel.taskIds ?? [];
  const missing = ids.filter((id) => !repos.tasks.get(id));
  if (missing.length) throw new BundleError(`no task ${missing.slice(0, 3).join(", ")}`);
  if (!ids.length) {
    throw new BundleError(sel.all ? "there are no tasks to export" : "no task given");
  }
  const { bundle, skipped } = await buildExport(repos, home, ids, now);
  const base = bundle.tasks.length === 1
    ? slug(bundle.tasks[0].title)
    : `reinagent-export-${new Date(now()).toISOString().slice(0, 10)}`;
  return format === "md"
    ? {
      fileName: `${base}.md`,
      mime: "text/markdown",
      content: bundleMarkdown(bundle),
      tasks: bundle.tasks.length,
      skipped,
    }
    : {
      fileName: `${base}.json`,
      mime: "application/json",
      content: JSON.stringify(bundle),
      tasks: bundle.tasks.length,
      skipped,
    };
}

/** Imports a JSON export's text (throws `BundleError` when it is not one: nothing written). */
export async function importExportText(
  repos: Repos,
  home: string,
  text: string,
): Promise<ImportReport> {
  if (text.length > CARRY_LIMITS.bundleBytes) {
    throw new BundleError(`the file is larger than ${CARRY_LIMITS.bundleBytes / 1024 / 1024} MB`);
  }
  const { tasks, problems } = checkBundle(text);
  const report = emptyReport();
  report.filesRead = 1;
  addProblems(report, problems);
  return await importTasks(repos, home, tasks, report);
}

/** Imports a JSON export from a file; its size is checked before it is read. */
export async function importExportFile(
  repos: Repos,
  home: string,
  path: string,
): Promise<ImportReport> {
  const st = await Deno.stat(path).catch(() => null);
  if (!st?.isFile) throw new BundleError(`${path} is not a file`);
  if (st.size > CARRY_LIMITS.bundleBytes) {
    throw new BundleError(
      `${path} is larger than ${CARRY_LIMITS.bundleBytes / 1024 / 1024} MB; not read`,
    );
  }
  return await importExportText(repos, home, await Deno.readTextFile(path));
}

/** Imports the sessions of a tool from its default folder or `path` (file or folder). */
export async function importForeign(
  repos: Repos,
  home: string,
  source: ForeignSource,
  path?: string,
): Promise<ImportReport> {
  const where = path ?? defaultPath(source);
  const report = emptyReport();
  if (!await Deno.stat(where).then(() => true, () => false)) {
    throw new BundleError(`no ${source} sessions at ${where} (the folder does not exist)`);
  }
  const files = await findSessionFiles(source, where);
  // One file at a time: a folder of thousands of sessions is never held in memory whole.
  for (const file of files) {
    const tasks: ExportedTask[] = [];
    try {
      const read = await readSessionFile(source, file);
      report.filesRead++;
      addProblems(report, read.problems);
      for (const s of read.sessions) {
        // A folder that does not exist on this machine would make the task unusable.
        if (s.cwd && !await Deno.stat(s.cwd).then((st) => st.isDirectory, () => false)) {
          s.cwd = null;
        }
        const t = sessionToTask(s);
        if (t) tasks.push(t);
      }
    } catch (e) {
      addProblems(report, [`${file}: ${(e as Error).message}`]);
    }
    await importTasks(repos, home, tasks, report);
  }
  return report;
}

export function foreignSources(env?: Record<string, string>): Promise<ForeignSourceInfo[]> {
  return scanSources(FOREIGN_SOURCES, env);
}
