/**
 * `reinagent export | import | backup | restore`: carrying history and configuration
 * between machines. They use the running instance for
 * the data dir when there is one, otherwise open it in this process (holding its lock).
 *
 *   reinagent export TASK… | --all [--format md|json] [--out FILE]
 *   reinagent import FILE | --from claude-code|codex|opencode|pi [PATH]
 *   reinagent backup [--include-keys] [--out FILE | --webdav URL [--webdav-user U]]
 *   reinagent restore FILE | --webdav URL [--webdav-user U]
 * The WebDAV password is read from REINAGENT_WEBDAV_PASSWORD (never from the command line).
 */
import { netFetch } from "../../tools/net/proxy.ts";
import { openHomeClient } from "./home_client.ts";
import { instancePath, tokenPath } from "../home.ts";
import { type BackupRestoreReport, type ImportReport } from "../../protocol/carry.ts";
import type { CarryCommand } from "./carry_args.ts";

export interface CarryOut {
  line(s: string): void;
  err(s: string): void;
  /** Raw text to stdout (an export without --out). */
  write(s: string): void;
}

/** The lines an import report prints. */
export function reportLines(r: ImportReport): string[] {
  const lines = [
    `imported ${r.tasksCreated} new task(s), updated ${r.tasksUpdated}, ` +
    `${r.tasksSkipped} already here; ${r.entriesAdded} entries, ${r.attachmentsAdded} attachments` +
    (r.filesRead > 1 ? ` (from ${r.filesRead} files)` : ""),
  ];
  for (const p of r.problems) lines.push(`  problem: ${p}`);
  if (r.moreProblems) lines.push(`  … and ${r.moreProblems} more problems`);
  return lines;
}

function restoreLines(r: BackupRestoreReport): string[] {
  return [
    `restored ${r.settings} settings, ${r.providers} providers, ${r.mcpServers} MCP servers, ` +
    `${r.projects} new projects`,
    ...r.skipped.map((s) => `  skipped: ${s}`),
    `  the configuration before the restore is in ${r.savedBefore}`,
  ];
}

const webdavArgs = (url: string, user?: string) => ({
  url,
  ...(user ? { username: user } : {}),
  ...(Deno.env.get("REINAGENT_WEBDAV_PASSWORD")
    ? { password: Deno.env.get("REINAGENT_WEBDAV_PASSWORD") }
    : {}),
});

/** `GET /api/export` of the running server of `home` (its URL and token from the data dir). */
async function exportOverHttp(
  home: string,
  cmd: Extract<CarryCommand, { kind: "export" }>,
): Promise<{ content: string; tasks: number }> {
  const info = JSON.parse(await Deno.readTextFile(instancePath(home))) as { base: string };
  const token = (await Deno.readTextFile(tokenPath(home))).trim();
  const q = new URLSearchParams({ format: cmd.format });
  if (cmd.all) q.set("all", "1");
  for (const id of cmd.taskIds) q.append("task", id);
  const res = await netFetch(`${info.base}/api/export?${q}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    throw new Error(body?.error?.message ?? `the server answered ${res.status}`);
  }
  return { content: await res.text(), tasks: Number(res.headers.get("x-reinagent-tasks") ?? 0) };
}

export async function carryCommand(
  cmd: CarryCommand,
  home: string,
  out: CarryOut,
): Promise<number> {
  const opened = await openHomeClient(home, cmd.kind);
  if ("error" in opened) {
    out.err(`reinagent: ${opened.error}`);
    return 1;
  }
  const { client } = opened;
  try {
    switch (cmd.kind) {
      case "export": {
        // A running server sends it over HTTP: a WebSocket message is bounded in size.
        const r = opened.remote ? await exportOverHttp(home, cmd) : await client.request(
          "carry.export",
          { ...(cmd.all ? { all: true } : { taskIds: cmd.taskIds }), format: cmd.format },
        );
        if (!cmd.out) out.write(r.content);
        else {
          await Deno.writeTextFile(cmd.out, r.content, { mode: 0o600 });
          out.err(`wrote ${r.tasks} task(s) to ${cmd.out}`);
        }
        return 0;
      }
      case "import": {
        const r: ImportReport = cmd.from
          ? await client.request("carry.importFrom", {
            source: cmd.from,
            ...(cmd.path ? { path: cmd.path } : {}),
          })
          : await client.request("carry.import", { path: cmd.file });
        reportLines(r).forEach(out.line);
        return 0;
      }
      case "backup": {
        if (cmd.webdav) {
          const r = await client.request("backup.webdav", {
            action: "upload",
            ...webdavArgs(cmd.webdav, cmd.webdavUser),
            includeKeys: cmd.includeKeys,
          });
          out.line(`uploaded the backup (${r.bytes} bytes) to ${cmd.webdav}`);
          return 0;
        }
        const r = await client.request("backup.export", { includeKeys: cmd.includeKeys });
        if (!cmd.out) out.write(r.content + "\n");
        else {
          await Deno.writeTextFile(cmd.out, r.content + "\n", { mode: 0o600 });
          out.err(
            `wrote the backup to ${cmd.out}${r.includesKeys ? " (with keys: keep it safe)" : ""}`,
          );
        }
        return 0;
      }
      case "restore": {
        const r: BackupRestoreReport = cmd.webdav
          ? (await client.request("backup.webdav", {
            action: "restore",
            ...webdavArgs(cmd.webdav, cmd.webdavUser),
          })).restored
          : await client.request("backup.restore", { path: cmd.file });
        restoreLines(r).forEach(out.line);
        return 0;
      }
    }
  } catch (e) {
    out.err(`reinagent: ${(e as Error).message}`);
    return 1;
  } finally {
    await client.close();
  }
}
