/**
 * `GET /api/export?task=ID[&task=…]|all=1[&format=md|json]`: an export as a file
 * download. The browser saves it straight to disk and the CLI of a running server reads
 * it over HTTP (a WebSocket message is bounded in size; an export with attachments need
 * not be). Runs after the token check in `routes.ts`.
 */
import type { Store } from "../../store/store.ts";
import { EXPORT_FORMATS, type ExportFormat } from "../../protocol/carry.ts";
import { BundleError, exportTasks } from "../carry/carry_service.ts";

const HEADERS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

const fail = (status: number, code: string, message: string) =>
  new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...HEADERS },
  });

const TASK_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** Answers `/api/export`; null for any other path. */
export async function handleExportDownload(
  req: Request,
  url: URL,
  deps: { home: string; store: Store },
): Promise<Response | null> {
  if (url.pathname !== "/api/export") return null;
  if (req.method !== "GET") return fail(405, "method_not_allowed", `${req.method} not allowed`);
  const repos = deps.store.repos;
  if (!repos) return fail(503, "store_unavailable", "the database could not be opened");
  const format = (url.searchParams.get("format") ?? "json") as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) return fail(400, "invalid_args", "format is md or json");
  const all = url.searchParams.get("all") === "1";
  const taskIds = url.searchParams.getAll("task");
  if (taskIds.some((id) => !TASK_ID_RE.test(id)) || taskIds.length > 10_000) {
    return fail(400, "invalid_args", "bad task id");
  }
  try {
    const f = await exportTasks(repos, deps.home, all ? { all } : { taskIds }, format);
    return new Response(f.content, {
      headers: {
        "content-type": `${f.mime}; charset=utf-8`,
        "content-disposition": `attachment; filename="${f.fileName.replace(/[^\w.-]/g, "_")}"`,
        "x-reinagent-tasks": String(f.tasks),
        ...HEADERS,
      },
    });
  } catch (e) {
    if (e instanceof BundleError) return fail(400, "invalid_args", e.message);
    console.error("export failed:", e);
    return fail(500, "internal", `the export failed: ${(e as Error).message}`);
  }
}
