/**
 * The file tools and commands of a task driven from an editor that offers its file
 * system and terminal (an ACP client): `read_file` reads the editor's text (its unsaved
 * buffer when the file is open), `write_file` and `edit_file` hand the new text to the
 * editor (the change lands in its buffer), `exec_command` runs in the editor's terminal.
 * Same names, schemas, kinds and traits as the built-ins, so the model, the approval
 * gate, checkpoints and the stale-read rule see no difference.
 *
 * The sandbox's promises are kept before anything is asked: a path must stay inside
 * the task's folders after resolving links and stay out of hidden ones (the runner checks
 * this only for worker tools; these run here), a write never goes through a link, and a
 * command's folder is held to the same rule. A command in the editor's terminal is not
 * under bubblewrap: the gate asks for it as for any unsandboxed command. What the editor
 * sends back is checked like any other input. Images, PDFs and other binary files (and
 * files too large for one answer) are read from the disk as read_file reads them: an
 * editor's file system speaks text only.
 */
import { dirname } from "../lib/path.ts";
import type { EditorCaps } from "../protocol/editor.ts";
import type { RefusalCode } from "../protocol/domain.ts";
import { EDITOR_LIMITS } from "../protocol/editor.ts";
import { lineDiff } from "../protocol/diff.ts";
import {
  type EditorAccess,
  fail,
  ok,
  type Tool,
  type ToolContext,
  type ToolResult,
} from "./types.ts";
import { displayPath, notRegular, pathRefusal, resolvePath } from "./paths.ts";
import { notPlainText, READ_FILE_MAX_LINES, readFile, textWindow } from "./read_file.ts";
import { writeFile } from "./write_file.ts";
import { applyEdit, type EditArgs, editArgsProblem, editFile } from "./edit_file.ts";
import { DEFAULT_TIMEOUT_S, execCommand } from "./exec/exec_command.ts";
import { pickShell } from "./exec/process.ts";

export type { EditorAccess } from "./types.ts";

/** Largest file asked of the editor: its answer must fit one message. */
const EDITOR_READ_BYTES = EDITOR_LIMITS.replyBytes - 64 * 1024;
const WRITE_MAX_BYTES = 10 * 1024 * 1024;
/** Output an editor's terminal keeps for a command (its tail). */
const TERMINAL_OUTPUT_BYTES = 30 * 1024;
/** How long a file request may take (an editor that hangs fails the call). */
const FILE_TIMEOUT_MS = 60_000;
/** Kill and release after a timeout or stop: bounded, so a stop always ends the call. */
const CLEANUP_TIMEOUT_MS = 10_000;

const refused = (code: RefusalCode, text: string, shown: string): ToolResult =>
  fail(text, { refusal: { code, params: { path: shown } } });

/** `path` of a call, confined to the task's folders (links resolved) and out of hidden ones. */
function confined(
  tool: string,
  path: string,
  ctx: ToolContext,
): { abs: string; shown: string } | { refused: ToolResult } {
  if (!path.trim()) return { refused: fail(`${tool} needs a non-empty \`path\`.`) };
  const abs = resolvePath(path, ctx.workspace);
  const shown = displayPath(abs, ctx.workspace);
  const refusal = pathRefusal(abs, ctx.roots ?? [ctx.workspace], ctx.hidden ?? []);
  return refusal ? { refused: refused(refusal.code, refusal.text, shown) } : { abs, shown };
}

const lstat = (abs: string): Deno.FileInfo | null => {
  try {
    return Deno.lstatSync(abs);
  } catch {
    return null;
  }
};

/** The disk's stamp of `abs` (null when it is not on disk: a buffer the editor never saved). */
const stamp = (abs: string) => {
  try {
    const st = Deno.statSync(abs);
    return { abs, mtimeMs: st.mtime?.getTime() ?? null, size: st.size };
  } catch {
    return null;
  }
};

function withSignal(signal: AbortSignal, ms: number): AbortSignal {
  return AbortSignal.any([signal, AbortSignal.timeout(ms)]);
}

const errText = (e: unknown) => e instanceof Error ? e.message : String(e);

/** The editor's text of `abs` (checked to be text). */
async function editorText(ed: EditorAccess, abs: string, signal: AbortSignal): Promise<string> {
  const r = await ed.request(
    "fs/read_text_file",
    { path: abs },
    withSignal(signal, FILE_TIMEOUT_MS),
  ) as { content?: unknown };
  if (typeof r?.content !== "string") throw new Error("the editor sent no text");
  return r.content;
}

async function editorWrite(ed: EditorAccess, abs: string, content: string, signal: AbortSignal) {
  await ed.request(
    "fs/write_text_file",
    { path: abs, content },
    withSignal(signal, FILE_TIMEOUT_MS),
  );
}

/** A built-in with another body: same name, schema, kind and traits; run in this process. */
function via<T>(tool: Tool<T>, exec: (args: T, ctx: ToolContext) => Promise<ToolResult>): Tool<
  T
> {
  const run = async (args: T, ctx: ToolContext) => {
    const r = await exec(args, ctx);
    // As defineTool does: the change card learns from the result which calls changed files.
    return tool.traits.changesFiles && !r.isError
      ? { ...r, meta: { ...r.meta, changesFiles: true } }
      : r;
  };
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    kind: tool.kind,
    placement: "main",
    traits: tool.traits,
    parse: tool.parse,
    run,
    execute(args, ctx) {
      const parsed = tool.parse(args);
      return parsed.ok ? run(parsed.args, ctx) : Promise.resolve(fail(parsed.error));
    },
  };
}

const noEditor = () => fail("The editor is no longer connected; send the message again.");

type ReadArgs = { path: string; offset?: number; limit?: number };

const editorReadFile = via(readFile, async (args: ReadArgs, ctx) => {
  const ed = ctx.editor;
  if (!ed) return noEditor();
  const target = confined("read_file", args.path, ctx);
  if ("refused" in target) return target.refused;
  const { abs, shown } = target;
  const st = lstat(abs);
  const real = st?.isSymlink
    ? (() => {
      try {
        return Deno.statSync(abs);
      } catch {
        return null;
      }
    })()
    : st;
  if (real?.isDirectory) return fail(`${shown} is a directory. Use list_dir instead.`);
  if (real && !real.isFile) return fail(notRegular(shown));
  // What only the disk can give (images, PDFs, binary files, very large files): as ever.
  if (real && (real.size > EDITOR_READ_BYTES || notPlainText(head(abs)))) {
    return await readFile.run(args, ctx);
  }
  let text: string;
  try {
    text = await editorText(ed, abs, ctx.signal);
  } catch (e) {
    return fail(`The editor could not read ${shown}: ${errText(e)}`);
  }
  const file = stamp(abs);
  return textWindow(text, shown, args.offset ?? 1, args.limit ?? READ_FILE_MAX_LINES, {
    viaEditor: true,
    ...(file ? { file } : {}),
  });
});

/** The first bytes of a file (empty when it cannot be read). */
function head(abs: string): Uint8Array {
  try {
    const f = Deno.openSync(abs, { read: true });
    try {
      const buf = new Uint8Array(8000);
      const n = f.readSync(buf) ?? 0;
      return buf.subarray(0, n);
    } finally {
      f.close();
    }
  } catch {
    return new Uint8Array();
  }
}

const editorWriteFile = via(writeFile, async (args: { path: string; content: string }, ctx) => {
  const ed = ctx.editor;
  if (!ed) return noEditor();
  const target = confined("write_file", args.path, ctx);
  if ("refused" in target) return target.refused;
  const { abs, shown } = target;
  const size = new TextEncoder().encode(args.content).length;
  if (size > WRITE_MAX_BYTES) return fail(`Content is too large (${size} bytes > 10 MB).`);
  const st = lstat(abs);
  if (st?.isDirectory) return fail(`${shown} is a directory.`);
  if (st?.isSymlink) return fail(`${shown} is a symbolic link; refusing to write through it.`);
  if (st && !st.isFile) return fail(notRegular(shown));
  // The old text for the diff: the editor's, when it reads (a file it has open may differ).
  let oldText = "";
  if (st) {
    try {
      oldText = ed.caps.read && st.size <= EDITOR_READ_BYTES
        ? await editorText(ed, abs, ctx.signal)
        : Deno.readTextFileSync(abs);
    } catch { /* the diff shows it all as new */ }
  }
  try {
    // The folders of a new file (confined above with the file); the editor writes the file.
    Deno.mkdirSync(dirname(abs), { recursive: true });
    await editorWrite(ed, abs, args.content, ctx.signal);
  } catch (e) {
    return fail(`The editor could not write ${shown}: ${errText(e)}`);
  }
  const lines = args.content.split("\n").length;
  const file = stamp(abs);
  return ok(
    `${st ? "Overwrote" : "Created"} ${shown} (${lines} lines, ${size} bytes) in the editor.`,
    {
      path: shown,
      created: !st,
      diff: lineDiff(oldText, args.content),
      viaEditor: true,
      ...(file ? { file } : {}),
    },
  );
});

const editorEditFile = via(editFile, async (args: EditArgs, ctx) => {
  const ed = ctx.editor;
  if (!ed) return noEditor();
  const target = confined("edit_file", args.path, ctx);
  if ("refused" in target) return target.refused;
  const { abs, shown } = target;
  const problem = editArgsProblem(args);
  if (problem) return fail(problem);
  const st = lstat(abs);
  if (st?.isSymlink) return fail(`${shown} is a symbolic link; refusing to edit through it.`);
  if (st && !st.isFile) return fail(notRegular(shown));
  let text: string;
  try {
    text = await editorText(ed, abs, ctx.signal);
  } catch (e) {
    return fail(`The editor could not read ${shown}: ${errText(e)}`);
  }
  const edit = applyEdit(text, args, shown);
  if ("error" in edit) return fail(edit.error);
  try {
    await editorWrite(ed, abs, edit.next, ctx.signal);
  } catch (e) {
    return fail(`The editor could not write ${shown}: ${errText(e)}`);
  }
  const file = stamp(abs);
  return ok(
    `Edited ${shown} in the editor: replaced ${edit.n} occurrence${
      edit.n === 1 ? "" : "s"
    }${edit.loose}.`,
    {
      path: shown,
      replacements: edit.n,
      diff: lineDiff(text, edit.next),
      viaEditor: true,
      ...(file ? { file } : {}),
    },
  );
});

type ExecArgs = { command: string; cwd?: string; timeout?: number };

const editorExecCommand = via(execCommand, async (args: ExecArgs, ctx) => {
  const ed = ctx.editor;
  if (!ed) return noEditor();
  if (!args.command.trim()) return fail("exec_command needs a non-empty `command`.");
  const t = args.timeout ?? DEFAULT_TIMEOUT_S;
  // No bubblewrap around the editor's terminal: its folder is held to the file tools' rule.
  const target = confined("exec_command", args.cwd?.trim() ? args.cwd : ".", ctx);
  if ("refused" in target) return target.refused;
  const { abs: cwd, shown: shownCwd } = target;
  try {
    if (!Deno.statSync(cwd).isDirectory) return fail(`cwd ${shownCwd} is not a directory.`);
  } catch {
    return fail(`cwd ${shownCwd} does not exist.`);
  }
  if (ctx.signal.aborted) return fail("Stopped by the user before the command started.");
  const shell = pickShell(ctx.shell);
  const started = performance.now();
  let terminalId: string;
  try {
    const r = await ed.request("terminal/create", {
      command: shell.path,
      args: shell.args(args.command),
      cwd,
      outputByteLimit: TERMINAL_OUTPUT_BYTES,
    }, withSignal(ctx.signal, FILE_TIMEOUT_MS)) as { terminalId?: unknown };
    if (typeof r?.terminalId !== "string" || !r.terminalId) {
      throw new Error("the editor sent no terminal id");
    }
    terminalId = r.terminalId;
  } catch (e) {
    return fail(`The editor could not start the command: ${errText(e)}`, { cwd: shownCwd });
  }
  const cleanup = () => AbortSignal.timeout(CLEANUP_TIMEOUT_MS);
  const ids = { terminalId };
  let reason: "timeout" | "stop" | null = null;
  let exit: { exitCode?: unknown; signal?: unknown } | null = null;
  try {
    const timeout = AbortSignal.timeout(t * 1000);
    try {
      exit = await ed.request(
        "terminal/wait_for_exit",
        ids,
        AbortSignal.any([ctx.signal, timeout]),
      ) as typeof exit;
    } catch (e) {
      if (!ctx.signal.aborted && !timeout.aborted) throw e;
      reason = ctx.signal.aborted ? "stop" : "timeout";
      await ed.request("terminal/kill", ids, cleanup()).catch(() => {});
    }
    const out = await ed.request("terminal/output", ids, cleanup()) as {
      output?: unknown;
      truncated?: unknown;
      exitStatus?: { exitCode?: unknown; signal?: unknown } | null;
    };
    exit ??= out?.exitStatus ?? null;
    const output = typeof out?.output === "string" ? out.output : "";
    const exitCode = typeof exit?.exitCode === "number" ? exit.exitCode : null;
    const signal = typeof exit?.signal === "string" ? exit.signal.slice(0, 40) : null;
    const status = reason === "timeout"
      ? `Timed out after ${t} s; the editor was asked to kill the command.`
      : reason === "stop"
      ? "Stopped by the user."
      : signal
      ? `Killed by signal ${signal}.`
      : `Exit code: ${exitCode}`;
    const cut = out?.truncated === true ? "(the start of the output was cut)\n" : "";
    const body = output === "" ? "No output." : cut + output.replace(/\n$/, "");
    return (reason ? fail : ok)(`${body}\n\n${status}`, {
      exitCode,
      signal,
      timedOut: reason === "timeout",
      ...(reason === "timeout" ? { timeoutS: t } : {}),
      stopped: reason === "stop",
      durationMs: Math.round(performance.now() - started),
      truncated: out?.truncated === true,
      cwd: shownCwd,
      sandbox: "none: the editor's terminal",
      shell: shell.path,
      viaEditor: true,
    });
  } catch (e) {
    return fail(`The editor's terminal failed: ${errText(e)}`, { cwd: shownCwd });
  } finally {
    await ed.request("terminal/release", ids, cleanup()).catch(() => {});
  }
});

/** The tools the editor's capabilities replace (none when it offers nothing). */
export function editorTools(caps: EditorCaps): Tool[] {
  const out: Tool[] = [];
  if (caps.read) out.push(editorReadFile as unknown as Tool);
  if (caps.write) out.push(editorWriteFile as unknown as Tool);
  // An edit reads the editor's text and writes it back: it needs both.
  if (caps.read && caps.write) out.push(editorEditFile as unknown as Tool);
  if (caps.terminal) out.push(editorExecCommand as unknown as Tool);
  return out;
}
