/**
 * The patch format OpenAI's Codex models are trained to write:
 *
 *   *** Begin Patch
 *   *** Add File: path        then every line starts with `+`
 *   *** Delete File: path
 *   *** Update File: path
 *   *** Move to: new/path     (optional, right after Update File)
 *   @@ optional context line  then lines starting with ` `, `-` or `+`
 *   *** End of File           (optional: the chunk must match at the file's end)
 *   *** End Patch
 *
 * Parsing is pure and strict about the envelope but lenient where models slip: a
 * heredoc wrapper (`<<'EOF'` … `EOF`) around the patch, blank context lines written
 * without their leading space, and a first chunk without `@@`.
 */

export interface UpdateChunk {
  /** The `@@` header's text: a line to find before the chunk's lines (may be empty). */
  context: string;
  oldLines: string[];
  newLines: string[];
  /** The chunk ends the file (`*** End of File`). */
  eof: boolean;
}

export type FileOp =
  | { type: "add"; path: string; content: string }
  | { type: "delete"; path: string }
  | { type: "update"; path: string; moveTo?: string; chunks: UpdateChunk[] };

export type ParsedPatch = { ok: true; ops: FileOp[] } | { ok: false; error: string };

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const EOF_MARK = "*** End of File";

/** Strips a shell heredoc around the patch (`apply_patch <<'EOF'` … `EOF`). */
function unwrap(lines: string[]): string[] {
  const first = lines[0]?.trim() ?? "";
  const last = lines[lines.length - 1]?.trim() ?? "";
  if (/<<\s*['"]?(\w+)['"]?$/.test(first)) {
    const tag = /<<\s*['"]?(\w+)['"]?$/.exec(first)![1];
    return lines.slice(1, last === tag ? -1 : undefined);
  }
  return lines;
}

const isFileHeader = (l: string) =>
  l.startsWith(ADD) || l.startsWith(DELETE) || l.startsWith(UPDATE) || l.trim() === END;

export function parsePatch(input: string): ParsedPatch {
  let lines = input.replace(/\r\n/g, "\n").split("\n");
  while (lines.length && lines[lines.length - 1].trim() === "") lines.pop();
  while (lines.length && lines[0].trim() === "") lines.shift();
  lines = unwrap(lines);
  if (lines[0]?.trim() !== BEGIN) {
    return { ok: false, error: `The first line of the patch must be '${BEGIN}'.` };
  }
  if (lines[lines.length - 1]?.trim() !== END) {
    return { ok: false, error: `The last line of the patch must be '${END}'.` };
  }
  const ops: FileOp[] = [];
  let i = 1;
  const at = (n: number) => `line ${n + 1}`;
  while (i < lines.length - 1) {
    const line = lines[i];
    if (line.startsWith(ADD)) {
      const path = line.slice(ADD.length).trim();
      const body: string[] = [];
      i++;
      while (i < lines.length - 1 && !isFileHeader(lines[i])) {
        if (!lines[i].startsWith("+")) {
          return {
            ok: false,
            error: `${at(i)}: every line of an added file must start with '+': ${lines[i]}`,
          };
        }
        body.push(lines[i].slice(1));
        i++;
      }
      ops.push({ type: "add", path, content: body.length ? body.join("\n") + "\n" : "" });
    } else if (line.startsWith(DELETE)) {
      ops.push({ type: "delete", path: line.slice(DELETE.length).trim() });
      i++;
    } else if (line.startsWith(UPDATE)) {
      const path = line.slice(UPDATE.length).trim();
      i++;
      let moveTo: string | undefined;
      if (lines[i]?.startsWith(MOVE)) {
        moveTo = lines[i].slice(MOVE.length).trim();
        i++;
      }
      const chunks: UpdateChunk[] = [];
      let cur: UpdateChunk | null = null;
      while (i < lines.length - 1 && !isFileHeader(lines[i])) {
        const l = lines[i];
        if (l.startsWith("@@")) {
          cur = { context: l.slice(2).trim(), oldLines: [], newLines: [], eof: false };
          chunks.push(cur);
        } else if (l.trim() === EOF_MARK) {
          if (!cur) return { ok: false, error: `${at(i)}: '${EOF_MARK}' before any change.` };
          cur.eof = true;
        } else {
          if (!cur) {
            cur = { context: "", oldLines: [], newLines: [], eof: false };
            chunks.push(cur);
          }
          const mark = l[0];
          if (mark === " " || l === "") {
            cur.oldLines.push(l.slice(1));
            cur.newLines.push(l.slice(1));
          } else if (mark === "-") cur.oldLines.push(l.slice(1));
          else if (mark === "+") cur.newLines.push(l.slice(1));
          else {
            return {
              ok: false,
              error: `${at(i)}: a line of a change must start with ' ', '-' or '+' ` +
                `(or be an '@@' header): ${l}`,
            };
          }
        }
        i++;
      }
      if (!chunks.length || chunks.every((c) => !c.oldLines.length && !c.newLines.length)) {
        if (!moveTo) return { ok: false, error: `Update of ${path} has no changes.` };
      }
      ops.push({ type: "update", path, moveTo, chunks });
    } else if (line.trim() === "") {
      i++;
    } else {
      return {
        ok: false,
        error: `${at(i)}: expected '${ADD}', '${DELETE}' or '${UPDATE}', found: ${line}`,
      };
    }
  }
  if (!ops.length) return { ok: false, error: "The patch changes no file." };
  for (const op of ops) {
    if (!op.path) return { ok: false, error: "A file header names no path." };
  }
  return { ok: true, ops };
}

/** Every path a patch writes or removes (Move to targets included); none when invalid. */
export function patchPaths(input: unknown): string[] {
  if (typeof input !== "string") return [];
  const p = parsePatch(input);
  if (!p.ok) return [];
  return p.ops.flatMap((op) =>
    op.type === "update" && op.moveTo ? [op.path, op.moveTo] : [op.path]
  );
}
