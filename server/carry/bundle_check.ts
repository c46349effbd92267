/**
 * Validation of an export file before anything is written: the kind and version gate,
 * then each task, entry and attachment. A bad task or entry is left out and reported
 * (the rest imports); attachment names go through the upload store's name rules, so
 * `../x` or `a/b` can never become a path.
 */
import {
  CARRY_LIMITS,
  EXPORT_KIND,
  EXPORT_VERSION,
  type ExportedAttachment,
  type ExportedTask,
} from "../../protocol/carry.ts";
import { ATTACHMENT_ID_RE, MIME_RE } from "../../protocol/composer.ts";
import type { Entry, EntryRole, EntryStatus, Part } from "../../protocol/domain.ts";
import { ASSISTANT_ID_RE, EFFORT_LEVELS, LIMITS } from "../../protocol/index.ts";
import { nameProblem } from "../composer/uploads_store.ts";

export const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
const ROLES: readonly EntryRole[] = ["user", "assistant", "tool", "system", "compact", "error"];
const STATUSES: readonly EntryStatus[] = ["done", "streaming", "stopped", "error"];
const PART_TYPES: readonly Part["type"][] = [
  "text",
  "thinking",
  "tool_call",
  "tool_result",
  "image",
  "file",
];
const B64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isTime = (v: unknown): v is number =>
  typeof v === "number" && Number.isFinite(v) && v >= 0 && v < 1e14;

export class BundleError extends Error {}

/**
 * Where a JSON text broke (" at position N"), without the parser's quote of the text:
 * a file named by path may be anything, and its content is not echoed to a client.
 */
export function jsonWhere(e: unknown): string {
  const m = String((e as Error)?.message).match(/position (\d+)/);
  return m ? ` (at position ${m[1]})` : "";
}

/** The checked tasks of an export file, and the problems of what was left out. */
export interface CheckedBundle {
  tasks: ExportedTask[];
  problems: string[];
}

function checkPart(p: unknown, where: string): Part | string {
  if (!isObj(p)) return `${where}: not an object`;
  if (!PART_TYPES.includes(p.type as Part["type"])) return `${where}: unknown type`;
  if (p.text !== undefined && typeof p.text !== "string") return `${where}: text is not a string`;
  if (p.data !== undefined && !isObj(p.data)) return `${where}: data is not an object`;
  const part: Part = { type: p.type as Part["type"] };
  if (typeof p.text === "string") part.text = p.text;
  if (isObj(p.data)) part.data = attachmentData(part.type, p.data);
  return part;
}

/**
 * An attachment part's `path` is where its copy was in the workspace; a run reads it when
 * the upload is missing. Only the shape ReinAgent writes is kept
 * (`/…/.reinagent/attachments/<id>/<name>`): a file could name any path here.
 */
function attachmentData(type: Part["type"], data: Record<string, unknown>) {
  if ((type !== "image" && type !== "file") || data.mention === true || data.path === undefined) {
    return data;
  }
  const { path, ...rest } = data;
  const tail = `/.reinagent/attachments/${String(data.id)}/${String(data.name)}`;
  const ok = typeof path === "string" && path.startsWith("/") && path.endsWith(tail) &&
    ATTACHMENT_ID_RE.test(String(data.id)) && !nameProblem(String(data.name)) &&
    !path.split("/").includes("..");
  return ok ? data : rest;
}

export function checkEntry(e: unknown, taskId: string, where: string): Entry | string {
  if (!isObj(e)) return `${where}: not an object`;
  if (typeof e.id !== "string" || !ID_RE.test(e.id)) return `${where}: bad id`;
  if (!ROLES.includes(e.role as EntryRole)) return `${where}: unknown role`;
  if (!STATUSES.includes(e.status as EntryStatus)) return `${where}: unknown status`;
  if (!Number.isSafeInteger(e.pos) || (e.pos as number) < 1) return `${where}: bad pos`;
  if (!isTime(e.createdAt) || !isTime(e.updatedAt)) return `${where}: bad times`;
  if (!Array.isArray(e.parts) || e.parts.length > 10_000) return `${where}: bad parts`;
  if (e.meta !== undefined && !isObj(e.meta)) return `${where}: meta is not an object`;
  const parts: Part[] = [];
  for (const [i, raw] of e.parts.entries()) {
    const p = checkPart(raw, `${where} part ${i}`);
    if (typeof p === "string") return p;
    parts.push(p);
  }
  return {
    id: e.id,
    taskId,
    pos: e.pos as number,
    role: e.role as EntryRole,
    // Nothing streams on the machine it comes to.
    status: e.status === "streaming" ? "stopped" : e.status as EntryStatus,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    parts,
    meta: isObj(e.meta) ? e.meta : {},
  };
}

export function checkAttachment(a: unknown, where: string): ExportedAttachment | string {
  if (!isObj(a)) return `${where}: not an object`;
  if (typeof a.id !== "string" || !ATTACHMENT_ID_RE.test(a.id)) return `${where}: bad id`;
  if (typeof a.name !== "string") return `${where}: no name`;
  const bad = nameProblem(a.name);
  if (bad) return `${where}: ${bad}`;
  if (typeof a.mime !== "string" || !MIME_RE.test(a.mime)) return `${where}: bad MIME type`;
  if (typeof a.data !== "string" || !B64_RE.test(a.data)) return `${where}: data is not base64`;
  // base64 is 4/3 of the bytes: refuse before decoding anything big.
  if (a.data.length > Math.ceil(CARRY_LIMITS.attachmentBytes / 3) * 4) {
    return `${where}: larger than ${CARRY_LIMITS.attachmentBytes} bytes`;
  }
  return {
    id: a.id,
    name: a.name,
    mime: a.mime,
    size: typeof a.size === "number" ? a.size : 0,
    createdAt: isTime(a.createdAt) ? a.createdAt : 0,
    data: a.data,
  };
}

/**
 * The task settings an import keeps: the model, effort, title lock, goal (paused), the
 * assistant and its MCP server binding (a restriction, never a grant: a name unknown
 * here offers no tools). Grants made on the other machine — the approval mode, "always allow" tool policies,
 * running without a sandbox — are not carried: they are decided here.
 */
export function safeSettings(v: unknown): Record<string, unknown> {
  const s = isObj(v) ? v : {};
  const m = s.model;
  const model = isObj(m) && typeof m.providerId === "string" && typeof m.modelId === "string" &&
      m.providerId.length <= 64 && m.modelId.length <= 200
    ? { providerId: m.providerId, modelId: m.modelId }
    : null;
  const out: Record<string, unknown> = {
    model,
    effort: (EFFORT_LEVELS as readonly unknown[]).includes(s.effort) ? s.effort : null,
    approval: null,
  };
  if (s.titleLocked === true) out.titleLocked = true;
  if (typeof s.assistantId === "string" && ASSISTANT_ID_RE.test(s.assistantId)) {
    out.assistantId = s.assistantId;
  }
  const servers = s.mcpServers;
  if (
    Array.isArray(servers) && servers.length <= 64 &&
    servers.every((n) => typeof n === "string" && n.length > 0 && n.length <= 64)
  ) out.mcpServers = servers;
  const g = s.goal;
  if (isObj(g) && typeof g.text === "string" && g.text.length <= LIMITS.messageChars) {
    out.goal = { text: g.text, paused: true, setAt: isTime(g.setAt) ? g.setAt : 0 };
  }
  return out;
}

function checkTask(t: unknown, where: string, problems: string[]): ExportedTask | null {
  if (!isObj(t)) return problems.push(`${where}: not an object`), null;
  if (typeof t.id !== "string" || !ID_RE.test(t.id)) return problems.push(`${where}: bad id`), null;
  if (!Array.isArray(t.entries)) return problems.push(`${where}: no entries`), null;
  if (t.entries.length > CARRY_LIMITS.entries) {
    return problems.push(`${where}: more than ${CARRY_LIMITS.entries} entries`), null;
  }
  const title = typeof t.title === "string" && t.title.trim()
    ? [...t.title.trim()].slice(0, LIMITS.titleChars).join("")
    : "Imported task";
  const projectPath = typeof t.projectPath === "string" && t.projectPath.startsWith("/") &&
      t.projectPath.length <= LIMITS.pathChars && !t.projectPath.includes("\0")
    ? t.projectPath
    : null;
  const entries: Entry[] = [];
  const ids = new Set<string>();
  for (const [i, raw] of t.entries.entries()) {
    const e = checkEntry(raw, t.id, `${where} entry ${i}`);
    if (typeof e === "string") problems.push(e);
    else if (ids.has(e.id)) problems.push(`${where} entry ${i}: id ${e.id} is used twice`);
    else {
      ids.add(e.id);
      entries.push(e);
    }
  }
  const attachments: ExportedAttachment[] = [];
  for (const [i, raw] of (Array.isArray(t.attachments) ? t.attachments : []).entries()) {
    const a = checkAttachment(raw, `${where} attachment ${i}`);
    if (typeof a === "string") problems.push(a);
    else attachments.push(a);
  }
  const now = Date.now();
  return {
    id: t.id,
    title,
    projectPath,
    pinned: t.pinned === true,
    lastRun: typeof t.lastRun === "string" ? t.lastRun : null,
    settings: safeSettings(t.settings),
    createdAt: isTime(t.createdAt) ? t.createdAt : now,
    updatedAt: isTime(t.updatedAt) ? t.updatedAt : now,
    entries,
    attachments,
    ...(isObj(t.origin) ? { origin: t.origin as ExportedTask["origin"] } : {}),
  };
}

/** Parses and checks an export file's text; throws `BundleError` when it is not one. */
export function checkBundle(text: string): CheckedBundle {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new BundleError(`not JSON${jsonWhere(e)}`);
  }
  if (!isObj(doc) || doc.kind !== EXPORT_KIND) {
    throw new BundleError(`not a ReinAgent export (expected "kind": "${EXPORT_KIND}")`);
  }
  if (!Number.isInteger(doc.version) || (doc.version as number) < 1) {
    throw new BundleError("the export has no valid version");
  }
  if ((doc.version as number) > EXPORT_VERSION) {
    throw new BundleError(
      `the export is version ${doc.version}, made by a newer ReinAgent; this one reads up to ${EXPORT_VERSION}`,
    );
  }
  if (!Array.isArray(doc.tasks)) throw new BundleError("the export has no tasks list");
  const problems: string[] = [];
  const tasks: ExportedTask[] = [];
  for (const [i, raw] of doc.tasks.entries()) {
    const t = checkTask(raw, `task ${i}`, problems);
    if (t) tasks.push(t);
  }
  return { tasks, problems };
}
