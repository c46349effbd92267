/**
 * Handlers for the ops in `protocol/panel.ts`: file preview (workspace-bound,
 * 256 KB cap, binary detection), a tool call's stored diff, and the About information.
 */
import { extname, join } from "../../lib/path.ts";
import {
  type AboutInfo,
  type FilePreview,
  type PanelDiff,
  PREVIEW_LIMITS,
} from "../../protocol/index.ts";
import type { PANEL_OP_ARGS } from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import { displayPath, isInside, outsideRoots, resolvePath } from "../../tools/paths.ts";
import { sandboxStatus } from "../../tools/exec/bwrap.ts";
import { getSettings } from "../providers/catalog.ts";
import { processMemory } from "../process_memory.ts";
import { type OpContext, services } from "./context.ts";
import type { OpHandlers } from "./types.ts";

/** The workspace of a task (the project folder, or the data dir's DefaultProject). */
function workspaceOf(ctx: OpContext, taskId: string): string {
  const task = services(ctx).tasks.get(taskId);
  return task.projectPath ?? join(ctx.home, "DefaultProject");
}

/** Extension (or file name) → highlighter language. */
const LANGS: Record<string, string> = {
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascript",
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescript",
  ".json": "json",
  ".jsonc": "json",
  ".json5": "json",
  ".md": "markdown",
  ".markdown": "markdown",
  ".py": "python",
  ".pyi": "python",
  ".rs": "rust",
  ".go": "go",
  ".java": "java",
  ".kt": "kotlin",
  ".c": "c",
  ".h": "c",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".hpp": "cpp",
  ".cs": "csharp",
  ".rb": "ruby",
  ".php": "php",
  ".swift": "swift",
  ".sh": "shell",
  ".bash": "shell",
  ".zsh": "shell",
  ".ps1": "powershell",
  ".bat": "batch",
  ".cmd": "batch",
  ".html": "html",
  ".htm": "html",
  ".xml": "xml",
  ".svg": "xml",
  ".vue": "html",
  ".css": "css",
  ".scss": "css",
  ".less": "css",
  ".yml": "yaml",
  ".yaml": "yaml",
  ".toml": "toml",
  ".ini": "ini",
  ".sql": "sql",
  ".lua": "lua",
  ".dockerfile": "dockerfile",
  ".diff": "diff",
  ".patch": "diff",
};
const NAMED: Record<string, string> = {
  dockerfile: "dockerfile",
  makefile: "makefile",
  ".bashrc": "shell",
  ".zshrc": "shell",
  ".gitignore": "ini",
  ".env": "ini",
};

export function languageOf(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  return NAMED[base] ?? LANGS[extname(base)] ?? "";
}

const MAGIC: [number[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47], "image/png"],
  [[0xff, 0xd8, 0xff], "image/jpeg"],
  [[0x47, 0x49, 0x46, 0x38], "image/gif"],
  [[0x25, 0x50, 0x44, 0x46], "application/pdf"],
  [[0x50, 0x4b, 0x03, 0x04], "application/zip"],
  [[0x1f, 0x8b], "application/gzip"],
  [[0x7f, 0x45, 0x4c, 0x46], "application/x-elf"],
  [[0x00, 0x61, 0x73, 0x6d], "application/wasm"],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], "application/vnd.sqlite3"],
];
const BY_EXT: Record<string, string> = {
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".mp3": "audio/mpeg",
  ".mp4": "video/mp4",
  ".wav": "audio/wav",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".exe": "application/x-msdownload",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

function mimeOf(head: Uint8Array, path: string, binary: boolean): string {
  for (const [sig, mime] of MAGIC) {
    if (sig.every((b, i) => head[i] === b)) return mime;
  }
  const ext = extname(path).toLowerCase();
  if (BY_EXT[ext]) return BY_EXT[ext];
  if (binary) return "application/octet-stream";
  if (ext === ".svg") return "image/svg+xml";
  if (ext === ".html" || ext === ".htm") return "text/html";
  if (ext === ".json") return "application/json";
  return "text/plain";
}

/** Reads at most `max` bytes from the start of `path`. */
async function readHead(path: string, max: number): Promise<Uint8Array> {
  const f = await Deno.open(path, { read: true });
  try {
    const buf = new Uint8Array(max);
    let n = 0;
    while (n < max) {
      const got = await f.read(buf.subarray(n));
      if (got === null) break;
      n += got;
    }
    return buf.subarray(0, n);
  } finally {
    f.close();
  }
}

/**
 * Text of the bytes, or null when they are binary (a NUL byte, or invalid UTF-8). When
 * `cut` (the file goes on), an incomplete character at the end is dropped, not binary.
 */
export function decodeText(bytes: Uint8Array, cut: boolean): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: cut });
  } catch {
    return null;
  }
}

/** Resolves and checks a preview path: inside the workspace, no symlink leading out. */
function checkedPath(ws: string, input: string): { abs: string; shown: string } {
  const abs = resolvePath(input, ws);
  if (!isInside(abs, ws)) {
    throw new OpError(
      "invalid_args",
      `${input} is outside the task's workspace ${ws}; only files inside it can be previewed`,
    );
  }
  const denied = outsideRoots(abs, [ws]);
  if (denied) {
    throw new OpError(
      "invalid_args",
      `${displayPath(abs, ws)} leads outside the task's workspace (a symlink); ` +
        "only files inside it can be previewed",
    );
  }
  return { abs, shown: displayPath(abs, ws) };
}

export async function previewFile(ws: string, input: string): Promise<FilePreview> {
  const { abs, shown } = checkedPath(ws, input);
  let st: Deno.FileInfo;
  try {
    st = await Deno.stat(abs);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new OpError("not_found", `${shown} does not exist in the workspace ${ws}`);
    }
    throw new OpError("invalid_args", `${shown} cannot be read: ${(e as Error).message}`);
  }
  if (st.isDirectory) throw new OpError("invalid_args", `${shown} is a folder, not a file`);
  if (!st.isFile) throw new OpError("invalid_args", `${shown} is not a regular file`);
  let head: Uint8Array;
  try {
    head = await readHead(abs, PREVIEW_LIMITS.bytes);
  } catch (e) {
    throw new OpError("invalid_args", `${shown} cannot be read: ${(e as Error).message}`);
  }
  // The size may change while reading; what was read is the truth for the cut.
  const size = Math.max(st.size, head.length);
  const cutBytes = size > head.length;
  let text = decodeText(head, cutBytes);
  const binary = text === null;
  let truncated: FilePreview["truncated"] = cutBytes ? "bytes" : null;
  let lines = 0;
  if (text !== null) {
    let at = -1;
    for (lines = 0; lines < PREVIEW_LIMITS.lines; lines++) {
      const next = text.indexOf("\n", at + 1);
      if (next < 0) break;
      at = next;
    }
    if (lines === PREVIEW_LIMITS.lines && at + 1 < text.length) {
      text = text.slice(0, at + 1);
      truncated = "lines";
    } else if (at + 1 < text.length) lines++; // a last line without newline
  }
  return {
    path: shown,
    absPath: abs,
    size,
    mtime: st.mtime?.getTime() ?? null,
    binary,
    language: binary ? "" : languageOf(abs),
    mime: mimeOf(head, abs, binary),
    text: binary ? null : text,
    lines,
    truncated,
  };
}

/** A well-formed stored diff, or null. */
function diffOf(meta: unknown): PanelDiff | null {
  const d = (meta as { diff?: unknown } | null)?.diff as PanelDiff | undefined;
  if (!d || typeof d !== "object" || !Array.isArray(d.hunks)) return null;
  if (!Number.isFinite(d.added) || !Number.isFinite(d.removed)) return null;
  return d;
}

let bwrapVersion: Promise<string | null> | null = null;

/** `bwrap --version`, asked once. */
function versionOf(path: string): Promise<string | null> {
  bwrapVersion ??= (async () => {
    try {
      const out = await new Deno.Command(path, {
        args: ["--version"],
        stdin: "null",
        stdout: "piped",
        stderr: "null",
        signal: AbortSignal.timeout(5000),
      }).output();
      const v = new TextDecoder().decode(out.stdout).trim();
      return out.success && v ? v : null;
    } catch {
      return null;
    }
  })();
  return bwrapVersion;
}

export const PANEL_HANDLERS: OpHandlers<keyof typeof PANEL_OP_ARGS> = {
  "file.preview": async (ctx, a) => {
    const ws = workspaceOf(ctx, a.taskId);
    const st = await Deno.stat(ws).catch(() => null);
    if (!st?.isDirectory) {
      throw new OpError("not_found", `the task's workspace ${ws} does not exist`);
    }
    try {
      return await previewFile(ws, a.path);
    } catch (e) {
      // Gone because a rewind removed it: say so (who, when) instead of "does not exist".
      const shown = displayPath(resolvePath(a.path, ws), ws);
      const by =
        e instanceof OpError && e.code === "not_found" && isInside(resolvePath(a.path, ws), ws)
          ? services(ctx).runs.records.removedBy(a.taskId, shown)
          : null;
      if (!by) throw e;
      return {
        path: shown,
        absPath: resolvePath(a.path, ws),
        size: 0,
        mtime: null,
        binary: false,
        language: "",
        mime: "",
        text: null,
        lines: 0,
        truncated: null,
        removed: {
          entryId: by.entryId,
          at: by.rewind.at,
          by: by.rewind.by,
          turnText: by.rewind.turnText,
        },
      };
    }
  },
  "file.diff": async (ctx, a) => {
    const ws = workspaceOf(ctx, a.taskId);
    if (a.turnId) {
      const want = displayPath(resolvePath(a.path, ws), ws);
      const { change, diff } = await services(ctx).runs.records.diff(a.taskId, a.turnId, want);
      return { path: change.path, tool: "turn", diff, change };
    }
    if (!a.callId) throw new OpError("invalid_args", "file.diff needs callId or turnId");
    const repo = services(ctx).repos.entries;
    const all = repo.latest(a.taskId, repo.count(a.taskId));
    const want = a.path ? displayPath(resolvePath(a.path, ws), ws) : "";
    // Call ids may repeat across turns: the latest result with this id (and path) wins.
    for (let i = all.length - 1; i >= 0; i--) {
      const e = all[i];
      const data = e.parts[0]?.data as Record<string, unknown> | undefined;
      if (e.role !== "tool" || String(data?.toolCallId ?? "") !== a.callId) continue;
      const meta = (data?.meta ?? {}) as Record<string, unknown>;
      const path = typeof meta.path === "string" ? meta.path : "";
      if (want && path && displayPath(resolvePath(path, ws), ws) !== want) continue;
      const diff = diffOf(meta);
      if (!diff) {
        throw new OpError("not_found", `tool call ${a.callId} has no line diff`);
      }
      return { path: path || want, tool: String(data?.name ?? ""), diff };
    }
    throw new OpError(
      "not_found",
      `no result of tool call ${a.callId}${want ? ` for ${want}` : ""} in this task`,
    );
  },
  "about.info": async (ctx): Promise<AboutInfo> => {
    const sb = await sandboxStatus();
    const settings = ctx.store.repos ? getSettings(ctx.store.repos) : null;
    return {
      version: ctx.version,
      home: ctx.home,
      store: ctx.store.health,
      pid: Deno.pid,
      clients: ctx.hub.clientCount,
      platform: `${Deno.build.os} ${Deno.build.arch}`,
      deno: Deno.version.deno,
      shellSandbox: {
        backend: sb.backend,
        available: sb.available,
        path: sb.path ?? null,
        version: sb.path ? await versionOf(sb.path) : null,
        networkIsolation: sb.networkIsolation ?? null,
        reason: sb.reason ?? null,
        level: settings?.sandboxLevel ?? null,
        network: settings?.sandboxNetwork ?? null,
      },
      toolSandbox: {
        backend: "deno-workers",
        detail:
          "File tools run in Deno workers whose permissions cover only the task's workspace " +
          "(no network, environment or programs; symlinks leading out are refused).",
      },
      checkpoints: ctx.runs?.checkpoints.storeInfo() ?? null,
      memory: await processMemory(),
    };
  },
};
