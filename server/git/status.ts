/** Parses `git status --porcelain=v2 --branch -z` into the panel's status (pure). */
import type { GitFileStatus } from "../../protocol/index.ts";

export interface ParsedStatus {
  branch: string | null;
  unborn: boolean;
  upstream: string | null;
  ahead: number;
  behind: number;
  files: GitFileStatus[];
}

/** v2 writes "." for an unchanged column; the panel shows the v1 space. */
const col = (c: string) => (c === "." ? " " : c);

/** The path after `skip` space-separated fields (the path itself may contain spaces). */
function after(rec: string, skip: number): string {
  let at = 0;
  for (let i = 0; i < skip; i++) at = rec.indexOf(" ", at) + 1;
  return rec.slice(at);
}

export function parseStatusV2(out: string): ParsedStatus {
  const s: ParsedStatus = {
    branch: null,
    unborn: false,
    upstream: null,
    ahead: 0,
    behind: 0,
    files: [],
  };
  const recs = out.split("\0");
  for (let i = 0; i < recs.length; i++) {
    const rec = recs[i];
    if (!rec) continue;
    if (rec.startsWith("# ")) {
      const [, key, ...rest] = rec.split(" ");
      const val = rest.join(" ");
      if (key === "branch.oid") s.unborn = val === "(initial)";
      else if (key === "branch.head") s.branch = val === "(detached)" ? null : val;
      else if (key === "branch.upstream") s.upstream = val;
      else if (key === "branch.ab") {
        const m = /^\+(\d+) -(\d+)$/.exec(val);
        if (m) [s.ahead, s.behind] = [Number(m[1]), Number(m[2])];
      }
      continue;
    }
    const kind = rec[0];
    if (kind === "?" || kind === "!") {
      s.files.push({ path: rec.slice(2), x: kind, y: kind });
    } else if (kind === "1") {
      s.files.push({ path: after(rec, 8), x: col(rec[2]), y: col(rec[3]) });
    } else if (kind === "2") {
      // A rename/copy: the original path is the next NUL-separated record.
      s.files.push({ path: after(rec, 9), origPath: recs[++i], x: col(rec[2]), y: col(rec[3]) });
    } else if (kind === "u") {
      s.files.push({ path: after(rec, 10), x: col(rec[2]), y: col(rec[3]) });
    }
  }
  return s;
}
