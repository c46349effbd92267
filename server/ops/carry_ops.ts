/** Handlers for the ops in `protocol/carry.ts`: export/import of history and the backup. */
import type { CARRY_OP_ARGS } from "../../protocol/carry.ts";
import type { ImportReport } from "../../protocol/carry.ts";
import { CARRY_LIMITS } from "../../protocol/carry.ts";
import { OpError } from "../errors.ts";
import { type OpContext, services, whoIs } from "./context.ts";
import type { OpHandlers } from "./types.ts";
import {
  BundleError,
  exportTasks,
  foreignSources,
  importExportFile,
  importForeign,
} from "../carry/carry_service.ts";
import { BackupError, buildBackup, restoreBackup } from "../carry/backup.ts";
import { WebdavError, webdavGet, webdavPut } from "../carry/webdav.ts";
import { readUpload, uploadDataPath } from "../composer/uploads_store.ts";
import { MCP_TOPIC, SETTINGS_TOPIC } from "../../protocol/index.ts";
import type { BackupRestoreReport } from "../../protocol/carry.ts";
import type { McpServerConfig } from "../../protocol/mcp_servers.ts";
import { getSettings } from "../providers/catalog.ts";
import { loweredSettings } from "../sessions/safety.ts";
import { mcpLowered, readServers } from "../mcp/config.ts";

/** Known failures become `invalid_args` (or `upstream` for WebDAV) with their message. */
async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof BundleError || e instanceof BackupError) {
      throw new OpError("invalid_args", e.message);
    }
    if (e instanceof WebdavError) throw new OpError("upstream", e.message);
    throw e;
  }
}

/** The file an op names: an upload (by id) or a path on this machine. */
async function sourceFile(ctx: OpContext, a: { upload?: string; path?: string }): Promise<string> {
  if (a.upload && a.path) throw new OpError("invalid_args", "give upload or path, not both");
  if (a.upload) {
    if (!await readUpload(ctx.home, a.upload)) {
      throw new OpError("not_found", `upload ${a.upload} does not exist`);
    }
    return uploadDataPath(ctx.home, a.upload);
  }
  if (a.path) {
    if (!a.path.startsWith("/")) throw new OpError("invalid_args", "path must be absolute");
    return a.path;
  }
  throw new OpError("invalid_args", "give an upload id or a path");
}

/** Every client's task list learns of the imported tasks. */
function announce(ctx: OpContext, report: ImportReport): ImportReport {
  const { repos, tasks } = services(ctx);
  for (const id of report.taskIds) {
    const t = repos.tasks.get(id);
    if (t) tasks.publish(t);
  }
  return report;
}

async function readBounded(path: string): Promise<string> {
  const st = await Deno.stat(path).catch(() => null);
  if (!st?.isFile) throw new OpError("invalid_args", `${path} is not a file`);
  if (st.size > CARRY_LIMITS.backupBytes) {
    throw new OpError("too_large", `${path} is larger than a backup can be`);
  }
  return await Deno.readTextFile(path);
}

/**
 * A restore as any settings change: lowered safety (a sandbox turned off, an MCP server
 * that now runs) is announced to every client, and their settings and MCP views refresh.
 */
async function restoring(
  ctx: OpContext,
  restore: () => Promise<BackupRestoreReport>,
): Promise<BackupRestoreReport> {
  const { repos } = services(ctx);
  const settingsBefore = getSettings(repos);
  const read = readServers(ctx.home);
  const mcpBefore: McpServerConfig[] = read.ok ? read.servers : [];
  const report = await restore();
  const after = readServers(ctx.home);
  ctx.safety.announce(whoIs(ctx), [
    ...loweredSettings(settingsBefore, getSettings(repos)),
    ...mcpLowered(mcpBefore, after.ok ? after.servers : []),
  ]);
  ctx.hub.publish(SETTINGS_TOPIC, { kind: "providers" });
  ctx.hub.publish(SETTINGS_TOPIC, { kind: "settings" });
  if (ctx.mcp) ctx.hub.publish(MCP_TOPIC, { kind: "overview", overview: await ctx.mcp.overview() });
  return report;
}

export const CARRY_HANDLERS: OpHandlers<keyof typeof CARRY_OP_ARGS> = {
  "carry.export": (ctx, a) =>
    guarded(async () => {
      if (!a.all && !a.taskIds?.length) throw new BundleError("give taskIds or all");
      const f = await exportTasks(services(ctx).repos, ctx.home, a, a.format);
      return { fileName: f.fileName, mime: f.mime, content: f.content, tasks: f.tasks };
    }),
  "carry.import": (ctx, a) =>
    guarded(async () => {
      const { repos } = services(ctx);
      const file = await sourceFile(ctx, a);
      return announce(ctx, await importExportFile(repos, ctx.home, file));
    }),
  "carry.sources": async () => ({ sources: await foreignSources() }),
  "carry.importFrom": (ctx, a) =>
    guarded(async () => {
      const { repos } = services(ctx);
      if (a.path && !a.path.startsWith("/")) throw new BundleError("path must be absolute");
      return announce(ctx, await importForeign(repos, ctx.home, a.source, a.path));
    }),
  "backup.export": (ctx, a) =>
    guarded(async () => {
      const doc = await buildBackup(services(ctx).repos, ctx.home, a.includeKeys === true);
      const day = new Date(doc.manifest.createdAt).toISOString().slice(0, 10);
      return {
        fileName: `reinagent-backup-${day}.json`,
        content: JSON.stringify(doc, null, 2),
        includesKeys: doc.manifest.includesKeys,
      };
    }),
  "backup.restore": (ctx, a) =>
    guarded(async () => {
      const { repos } = services(ctx);
      const text = a.text ?? await readBounded(await sourceFile(ctx, a));
      return await restoring(ctx, () => restoreBackup(repos, ctx.home, text));
    }),
  "backup.webdav": (ctx, a) =>
    guarded(async () => {
      const { repos } = services(ctx);
      const target = { url: a.url, username: a.username, password: a.password };
      if (a.action === "upload") {
        const doc = await buildBackup(repos, ctx.home, a.includeKeys === true);
        return { action: "upload", bytes: await webdavPut(target, JSON.stringify(doc, null, 2)) };
      }
      const text = await webdavGet(target);
      const restored = await restoring(ctx, () => restoreBackup(repos, ctx.home, text));
      return { action: "restore", bytes: text.length, restored };
    }),
};
