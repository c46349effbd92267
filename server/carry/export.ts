/**
 * Builds an export of tasks: each task's row, its whole timeline
 * and the bytes of the attachments its entries show (base64, each up to
 * `CARRY_LIMITS.attachmentBytes`; a larger or missing one is named in `skipped`).
 */
import type { Repos } from "../../store/store.ts";
import {
  CARRY_LIMITS,
  EXPORT_KIND,
  EXPORT_VERSION,
  type ExportBundle,
  type ExportedAttachment,
  type ExportedTask,
} from "../../protocol/carry.ts";
import { ATTACHMENT_ID_RE } from "../../protocol/composer.ts";
import type { Entry } from "../../protocol/domain.ts";
import { readUpload, uploadDataPath } from "../composer/uploads_store.ts";
import { VERSION } from "../version.ts";

/** Every entry of a task, oldest first. */
export function allEntries(repos: Repos, taskId: string): Entry[] {
  return repos.entries.latest(taskId, Number.MAX_SAFE_INTEGER);
}

/** Upload ids the entries' image/file parts refer to, in order of appearance. */
export function attachmentIdsOf(entries: Entry[]): string[] {
  const ids = new Set<string>();
  for (const e of entries) {
    for (const p of e.parts) {
      const id = p.data?.id;
      if ((p.type === "image" || p.type === "file") && typeof id === "string") {
        if (ATTACHMENT_ID_RE.test(id)) ids.add(id);
      }
    }
  }
  return [...ids];
}

async function exportAttachment(
  home: string,
  id: string,
): Promise<ExportedAttachment | string> {
  const meta = await readUpload(home, id);
  if (!meta) return `attachment ${id}: not in the upload store`;
  if (meta.size > CARRY_LIMITS.attachmentBytes) {
    return `attachment ${meta.name}: larger than ${CARRY_LIMITS.attachmentBytes} bytes`;
  }
  const bytes = await Deno.readFile(uploadDataPath(home, id)).catch(() => null);
  if (!bytes) return `attachment ${meta.name}: its data is missing`;
  return {
    id,
    name: meta.name,
    mime: meta.mime,
    size: bytes.length,
    createdAt: meta.createdAt,
    data: bytes.toBase64(),
  };
}

/** The tasks as an export; `skipped` names attachments that could not be included. */
export async function buildExport(
  repos: Repos,
  home: string,
  taskIds: string[],
  now: () => number = Date.now,
): Promise<{ bundle: ExportBundle; skipped: string[] }> {
  const tasks: ExportedTask[] = [];
  const skipped: string[] = [];
  for (const id of taskIds) {
    const t = repos.tasks.get(id);
    if (!t) continue;
    const entries = allEntries(repos, id);
    const attachments: ExportedAttachment[] = [];
    for (const aid of attachmentIdsOf(entries)) {
      const a = await exportAttachment(home, aid);
      if (typeof a === "string") skipped.push(`${t.title}: ${a}`);
      else attachments.push(a);
    }
    tasks.push({
      id: t.id,
      title: t.title,
      projectPath: t.projectPath,
      pinned: t.pinned,
      lastRun: t.lastRun,
      settings: t.settings as unknown as Record<string, unknown>,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
      entries,
      attachments,
    });
  }
  return {
    bundle: {
      kind: EXPORT_KIND,
      version: EXPORT_VERSION,
      exportedAt: now(),
      app: { name: "ReinAgent", version: VERSION },
      tasks,
    },
    skipped,
  };
}
