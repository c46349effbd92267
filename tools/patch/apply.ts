/**
 * Applying an update's chunks to a file's text, in memory: either every chunk finds its
 * place and the new text comes back, or an error names the chunk, what it looked for
 * and the nearest lines of the file. Nothing here touches the disk.
 */
import type { UpdateChunk } from "./parse.ts";
import { closest, numbered, seekAll } from "./seek.ts";

const indentOf = (s: string) => /^[ \t]*/.exec(s)![0];

/**
 * `replacement` written with the file's indentation where the model's `pattern` matched
 * `found` only with indentation ignored. Each indentation seen in the pattern maps to
 * the file's at the same line; others follow the linear rule the pairs imply (two
 * spaces per level in the model, four in the file), else the first pair's difference.
 */
export function reindent(
  replacement: readonly string[],
  pattern: readonly string[],
  found: readonly string[],
): string[] {
  const map = new Map<string, string>();
  for (const [k, l] of pattern.entries()) {
    if (l.trim() !== "" && found[k] !== undefined && !map.has(indentOf(l))) {
      map.set(indentOf(l), indentOf(found[k]));
    }
  }
  if (![...map].some(([a, b]) => a !== b)) return [...replacement];
  const pairs = [...map].map(([a, b]) => [a.length, b.length] as const);
  const unit = [...map.values()].find((v) => v)?.[0] ?? " ";
  const [p0, p1] = pairs;
  const slope = p1 && p1[0] !== p0[0] ? (p1[1] - p0[1]) / (p1[0] - p0[0]) : 1;
  const shift = p0[1] - slope * p0[0];
  const fits = pairs.every(([a, b]) => a * slope + shift === b);
  return replacement.map((l) => {
    if (l.trim() === "") return l;
    const own = indentOf(l);
    const mapped = map.get(own);
    if (mapped !== undefined) return mapped + l.slice(own.length);
    const width = Math.max(0, Math.round(fits ? own.length * slope + shift : own.length + shift));
    return unit.repeat(width) + l.slice(own.length);
  });
}

/** The file's lines as the format sees them (a final newline ends the last line). */
export const splitLines = (text: string): string[] => {
  const lines = text.split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
};

export type Applied = { ok: true; text: string } | { ok: false; error: string };

export function applyChunks(text: string, chunks: readonly UpdateChunk[], shown: string): Applied {
  const crlf = text.includes("\r\n");
  const lines = splitLines(crlf ? text.replace(/\r\n/g, "\n") : text);
  const edits: { start: number; len: number; lines: string[] }[] = [];
  let cursor = 0;
  for (const [n, chunk] of chunks.entries()) {
    const which = `Chunk ${n + 1} of ${shown}`;
    if (chunk.context) {
      const { starts } = seekAll(lines, [chunk.context], cursor);
      if (!starts.length) {
        return {
          ok: false,
          error: `${which}: the context line '@@ ${chunk.context}' was not found${
            cursor ? ` after line ${cursor}` : ""
          }.${hint(lines, [chunk.context])}`,
        };
      }
      cursor = starts[0] + 1;
    }
    if (!chunk.oldLines.length) {
      // A pure addition goes after its context line, or at the end of the file.
      edits.push({ start: chunk.context ? cursor : lines.length, len: 0, lines: chunk.newLines });
      continue;
    }
    let pattern = chunk.oldLines;
    let replacement = chunk.newLines;
    let hit = seekAll(lines, pattern, cursor, chunk.eof);
    if (!hit.starts.length && pattern[pattern.length - 1] === "") {
      // A trailing blank line the model added after the file's last line.
      pattern = pattern.slice(0, -1);
      if (replacement[replacement.length - 1] === "") replacement = replacement.slice(0, -1);
      hit = seekAll(lines, pattern, cursor, chunk.eof);
    }
    if (!hit.starts.length) {
      return {
        ok: false,
        error: `${which}: these lines were not found${cursor ? ` after line ${cursor}` : ""}` +
          `${chunk.eof ? " at the end of the file" : ""}:\n${
            pattern.slice(0, 6).map((l) => `      | ${l}`).join("\n")
          }${hint(lines, pattern)}`,
      };
    }
    const start = hit.starts[0];
    if (hit.pass !== "exact" && hit.pass !== "trailing-whitespace") {
      replacement = reindent(replacement, pattern, lines.slice(start, start + pattern.length));
    }
    edits.push({ start, len: pattern.length, lines: replacement });
    cursor = start + pattern.length;
  }
  const out = [...lines];
  for (const e of [...edits].sort((a, b) => b.start - a.start)) {
    out.splice(e.start, e.len, ...e.lines);
  }
  const joined = out.length ? out.join("\n") + "\n" : "";
  return { ok: true, text: crlf ? joined.replace(/\n/g, "\r\n") : joined };
}

/** The closest places in the file, numbered, or a plain request to read it again. */
export function hint(lines: readonly string[], pattern: readonly string[]): string {
  const near = closest(lines, pattern, 3);
  if (!near.length) return " Read the file again and copy its lines exactly.";
  return "\nClosest lines in the file:\n" +
    near.map((c) => numbered(lines, c.start, pattern.length, 4)).join("\n      ---\n") +
    "\nRead the file again and copy its lines exactly.";
}
