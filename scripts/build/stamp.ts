/**
 * Whether a build's output is older than what it reads: a stamp of the inputs' paths,
 * sizes and modification times, kept beside the output. A failed build writes no
 * stamp, so the next run builds again.
 */

/** The stamp of `dirs` (walked, `skip` left out), `files` and `extra` lines, in a stable order. */
export async function treeStamp(
  root: URL,
  dirs: string[],
  files: string[],
  skip: (rel: string) => boolean = () => false,
  extra: string[] = [],
): Promise<string> {
  const at = (p: string) => new URL(p, root).pathname;
  const lines: string[] = [...extra];
  const visit = async (dir: string): Promise<void> => {
    for await (const e of Deno.readDir(at(dir))) {
      const rel = `${dir}/${e.name}`;
      if (skip(rel)) continue;
      if (e.isDirectory) await visit(rel);
      else if (e.isFile) {
        const st = await Deno.stat(at(rel));
        lines.push(`${rel} ${st.size} ${st.mtime?.getTime() ?? 0}`);
      }
    }
  };
  await Promise.all(dirs.map(visit));
  for (const f of files) {
    const st = await Deno.stat(at(f)).catch(() => null);
    lines.push(`${f} ${st?.size ?? 0} ${st?.mtime?.getTime() ?? 0}`);
  }
  return lines.sort().join("\n");
}

/** The stamp in `stampFile` is `stamp` and every output exists. */
export async function stampMatches(
  stampFile: string,
  stamp: string,
  outputs: string[],
): Promise<boolean> {
  try {
    await Promise.all(outputs.map((f) => Deno.stat(f)));
    return (await Deno.readTextFile(stampFile)) === stamp;
  } catch {
    return false;
  }
}

/**
 * A cheaper record for the everyday question "did anything change since the last build?":
 * each file's size and modification time and each directory's modification time, so a
 * check is one `stat` per entry with no directory listing, process or hash. A directory's
 * time moves when an entry in it is added, removed or renamed (editors that save by
 * renaming included), so a new or deleted file is noticed without listing the folder.
 */
export interface TreeManifest {
  files: [path: string, size: number, mtime: number][];
  dirs: [path: string, mtime: number][];
}

/** Records `dirs` (walked, `skip` left out) and `files` under `root`; missing ones are left out. */
export function snapshotTree(
  root: URL,
  dirs: string[],
  files: string[],
  skip: (rel: string) => boolean = () => false,
): TreeManifest {
  const at = (p: string) => new URL(p, root).pathname;
  const m: TreeManifest = { files: [], dirs: [] };
  const visit = (dir: string) => {
    const st = statOrNull(at(dir));
    if (!st?.isDirectory) return;
    m.dirs.push([dir, st.mtime?.getTime() ?? 0]);
    for (const e of Deno.readDirSync(at(dir))) {
      const rel = `${dir}/${e.name}`;
      if (skip(rel)) continue;
      if (e.isDirectory) visit(rel);
      else if (e.isFile) addFile(rel);
    }
  };
  const addFile = (rel: string) => {
    const st = statOrNull(at(rel));
    if (st?.isFile) m.files.push([rel, st.size, st.mtime?.getTime() ?? 0]);
  };
  dirs.forEach(visit);
  files.forEach(addFile);
  return m;
}

/** Every entry of the manifest in `file` still has the size and time it recorded. */
export function manifestFresh(root: URL, file: string): boolean {
  let m: TreeManifest;
  try {
    m = JSON.parse(Deno.readTextFileSync(file));
  } catch {
    return false;
  }
  if (!Array.isArray(m?.files) || !Array.isArray(m?.dirs) || m.files.length === 0) return false;
  const at = (p: string) => new URL(p, root).pathname;
  for (const [rel, size, mtime] of m.files) {
    const st = statOrNull(at(rel));
    if (!st?.isFile || st.size !== size || (st.mtime?.getTime() ?? 0) !== mtime) return false;
  }
  for (const [rel, mtime] of m.dirs) {
    const st = statOrNull(at(rel));
    if (!st?.isDirectory || (st.mtime?.getTime() ?? 0) !== mtime) return false;
  }
  return true;
}

function statOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}
