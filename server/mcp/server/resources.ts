/**
 * MCP resources of the workbench: each task (`reinagent://task/{id}`, its status as JSON)
 * and its transcript (`reinagent://task/{id}/transcript`, Markdown), listed newest first
 * and paged, with the two URI templates so a client can read any task it knows the id of.
 * Completion offers task ids for the templates. All of it goes through the ops, like the
 * tools: what an MCP client may read is what a window may.
 */
import type { OpPort } from "./op_port.ts";
import { McpOpError } from "./op_port.ts";
import { taskStatus } from "./task_view.ts";
import { taskMarkdown } from "../../carry/markdown.ts";
import { TASK_ID_RE } from "./tool_kit.ts";

export const RESOURCE_PAGE = 50;
/** Entries of a transcript (the latest ones; earlier ones are said to be left out). */
export const TRANSCRIPT_ENTRIES = 500;

const TASK_URI = /^reinagent:\/\/task\/([^/?#]{1,64})(\/transcript)?$/;

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: "reinagent://task/{taskId}",
    name: "task",
    title: "A task's status",
    description: "A ReinAgent task: state, approvals it waits for, queue, last answer (JSON).",
    mimeType: "application/json",
  },
  {
    uriTemplate: "reinagent://task/{taskId}/transcript",
    name: "task-transcript",
    title: "A task's transcript",
    description: "The conversation of a ReinAgent task as Markdown (latest entries).",
    mimeType: "text/markdown",
  },
];

export async function listResources(ops: OpPort, cursor?: string) {
  const start = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isInteger(start) || start < 0) {
    throw new McpOpError("invalid_args", `invalid cursor "${String(cursor).slice(0, 40)}"`);
  }
  const { tasks } = await ops.call("tasks.list");
  const page = tasks.slice(start, start + RESOURCE_PAGE);
  const resources = page.flatMap((t) => [
    {
      uri: `reinagent://task/${t.id}`,
      name: t.title || t.id,
      title: t.title,
      mimeType: "application/json",
      annotations: { lastModified: new Date(t.updatedAt).toISOString() },
    },
    {
      uri: `reinagent://task/${t.id}/transcript`,
      name: `${t.title || t.id} (transcript)`,
      mimeType: "text/markdown",
    },
  ]);
  const next = start + RESOURCE_PAGE;
  return { resources, ...(next < tasks.length ? { nextCursor: String(next) } : {}) };
}

export async function readResource(ops: OpPort, uri: string) {
  const m = TASK_URI.exec(uri);
  if (!m || !TASK_ID_RE.test(m[1])) {
    throw new McpOpError("not_found", `no such resource ${uri.slice(0, 200)}`);
  }
  const id = m[1];
  if (!m[2]) {
    const status = await taskStatus(ops, id, 10);
    return {
      contents: [{ uri, mimeType: "application/json", text: JSON.stringify(status, null, 2) }],
    };
  }
  const snap = await ops.call("task.subscribe", { id });
  const entries = snap.entries.slice(-TRANSCRIPT_ENTRIES);
  const left = snap.total - entries.length;
  const t = snap.task;
  const text = taskMarkdown({
    id: t.id,
    title: t.title,
    projectPath: t.projectPath,
    pinned: t.pinned,
    lastRun: null,
    settings: {},
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    entries,
    attachments: [],
  });
  const note = left > 0 ? `\n\n_(${left} earlier entries left out)_` : "";
  return { contents: [{ uri, mimeType: "text/markdown", text: text + note }] };
}

/** Task ids starting with what was typed, for a template's `taskId`. */
export async function completeTaskId(ops: OpPort, typed: string) {
  const { tasks } = await ops.call("tasks.list");
  const values = tasks.map((t) => t.id).filter((id) => id.startsWith(typed));
  return { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 };
}
