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
