/**
 * `apply_patch`: several file changes in one call, in the patch format Codex's models
 * write (see patch/parse.ts). All or nothing: every change is worked out in memory
 * first, and a write that fails half way puts back the files already written. Each
 * path is confined like the other file tools; the runner checkpoints every path the
 * patch names (the `writesPaths` trait) before the worker writes.
 */
import { dirname } from "../lib/path.ts";
import { fail, type FileStamp, ok } from "./types.ts";
import { defineTool } from "./define.ts";
import type { PatchedFile, ToolDetails } from "../protocol/tool_details.ts";
import { obj } from "../protocol/schema.ts";
import { text } from "./args.ts";
import { hiddenPath, notRegular, toolPath } from "./paths.ts";
import { stampOf } from "./file_stamp.ts";
import { lineDiff } from "../protocol/diff.ts";
import { ensureTempIgnore } from "./temp_dir.ts";
import { parsePatch, patchPaths } from "./patch/parse.ts";
import { applyChunks } from "./patch/apply.ts";

const MAX_BYTES = 10 * 1024 * 1024;

type Details = ToolDetails<"apply_patch">;

/** What one file looks like before and after the patch (null: absent). */
interface Planned {
  abs: string;
  shown: string;
  before: string | null;
  after: string | null;
}

/** One file the patch changed, as the result's details list it. */
export type { PatchedFile };

const DESCRIPTION =
  `Edit files with a patch: add, update, delete or move several files in one call, \
all or nothing. The input is:
*** Begin Patch
*** Add File: path/new.ts
+every line of the new file, each prefixed with +
*** Update File: path/old.ts
*** Move to: path/renamed.ts   (optional)
@@ a line just above the change, e.g. a function header (optional)
 context line (a leading space)
-line to remove
+line to add
*** Delete File: path/gone.ts
*** End Patch
Give about 3 lines of context around each change; use several @@ chunks for several places.`;

/** The current text of `abs` as planned so far, reading the disk the first time. */
function current(plan: Map<string, Planned>, abs: string, shown: string): string | null | Error {
  const seen = plan.get(abs);
  if (seen) return seen.after;
  try {
    const st = Deno.lstatSync(abs);
    if (st.isSymlink) {
      return new Error(`${shown} is a symbolic link; refusing to patch through it.`);
    }
    if (st.isDirectory) return new Error(`${shown} is a directory.`);
    if (!st.isFile) return new Error(notRegular(shown));
    const before = Deno.readTextFileSync(abs);
    plan.set(abs, { abs, shown, before, after: before });
    return before;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      plan.set(abs, { abs, shown, before: null, after: null });
      return null;
    }
    return new Error(`Cannot read ${shown}: ${(e as Error).message}`);
  }
}

function setAfter(plan: Map<string, Planned>, abs: string, after: string | null) {
  plan.get(abs)!.after = after;
}

/** Writes the plan; on a failure, puts back what was already written and says why. */
async function commit(files: Planned[], workspace: string): Promise<string | null> {
  const done: Planned[] = [];
  for (const f of files) {
    if (f.before === f.after) continue;
    try {
      if (f.after === null) Deno.removeSync(f.abs);
      else {
        Deno.mkdirSync(dirname(f.abs), { recursive: true });
        await ensureTempIgnore(f.abs, workspace);
        Deno.writeTextFileSync(f.abs, f.after);
      }
      done.push(f);
    } catch (e) {
      for (const d of done.reverse()) {
        try {
          if (d.before === null) Deno.removeSync(d.abs);
          else Deno.writeTextFileSync(d.abs, d.before);
        } catch { /* best effort: the checkpoint can still rewind it */ }
      }
      return `Cannot write ${f.shown}: ${(e as Error).message}. No file was changed.`;
    }
  }
  return null;
}

export const applyPatch = defineTool<{ input: string }, ToolDetails<"apply_patch">>({
  name: "apply_patch",
  description: DESCRIPTION,
  args: obj({ input: text("The whole patch, from '*** Begin Patch' to '*** End Patch'") }),
  kind: "write",
  traits: { writesPaths: (args) => patchPaths(args.input), changesFiles: true },
  async execute(args, ctx) {
    const parsed = parsePatch(args.input);
    if (!parsed.ok) return fail(`Invalid patch: ${parsed.error} No file was changed.`);
    const plan = new Map<string, Planned>();
    const report: { abs: string; op: PatchedFile["op"]; from?: string }[] = [];
    const resolve = (p: string) => {
      const t = toolPath("apply_patch", p, ctx);
      if ("error" in t) return t;
      const hidden = hiddenPath(t.abs, ctx.hidden ?? [], ctx.roots ?? [ctx.workspace]);
      return hidden ? { error: hidden } : t;
    };
    const stop = (why: string) => fail<Details>(`${why} No file was changed.`);
    for (const op of parsed.ops) {
      const t = resolve(op.path);
      if ("error" in t) return stop(t.error);
      const now = current(plan, t.abs, t.shown);
      if (now instanceof Error) return stop(now.message);
      if (op.type === "add") {
        if (new TextEncoder().encode(op.content).length > MAX_BYTES) {
          return stop(`${t.shown} would be larger than 10 MB.`);
        }
        setAfter(plan, t.abs, op.content);
        report.push({ abs: t.abs, op: "add" });
      } else if (op.type === "delete") {
        if (now === null) return stop(`Cannot delete ${t.shown}: no such file.`);
        setAfter(plan, t.abs, null);
        report.push({ abs: t.abs, op: "delete" });
      } else {
        if (now === null) {
          return stop(`Cannot update ${t.shown}: no such file (use '*** Add File:' to create it).`);
        }
        const applied = applyChunks(now, op.chunks, t.shown);
        if (!applied.ok) return stop(applied.error);
        if (op.moveTo) {
          const to = resolve(op.moveTo);
          if ("error" in to) return stop(to.error);
          const there = current(plan, to.abs, to.shown);
          if (there instanceof Error) return stop(there.message);
          if (there !== null && to.abs !== t.abs) {
            return stop(`Cannot move ${t.shown} to ${to.shown}: that file exists.`);
          }
          setAfter(plan, t.abs, null);
          setAfter(plan, to.abs, applied.text);
          report.push({ abs: to.abs, op: "move", from: t.shown });
        } else {
          setAfter(plan, t.abs, applied.text);
          report.push({ abs: t.abs, op: "update" });
        }
      }
    }
    const files = [...plan.values()];
    const error = await commit(files, ctx.workspace);
    if (error) return fail(error);
    const stamps: FileStamp[] = files.filter((f) => f.after !== null).map((f) => stampOf(f.abs));
    const shownOf = (abs: string) => plan.get(abs)!.shown;
    const changed: PatchedFile[] = report.map((r) => {
      const f = plan.get(r.abs)!;
      const src = r.from ? [...plan.values()].find((p) => p.shown === r.from) : f;
      return {
        path: shownOf(r.abs),
        op: r.op,
        ...(r.from ? { movedFrom: r.from } : {}),
        diff: lineDiff(src?.before ?? "", f.after ?? ""),
      };
    });
    const letter = { add: "A", update: "M", delete: "D", move: "R" } as const;
    const lines = changed.map((c) =>
      `${letter[c.op]} ${c.movedFrom ? `${c.movedFrom} -> ` : ""}${c.path}`
    );
    return ok(`Success. Updated the following files:\n${lines.join("\n")}`, {
      path: changed[0]?.path,
      files: changed,
      stamps,
    });
  },
});
