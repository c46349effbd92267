/**
 * Keeps the bundle's lazily imported chunks lazy for Deno's loader. Deno builds a
 * module graph before running and follows every `import("literal")` into it: the
 * bundled `main.js --version` read and analysed all ~135 chunks (3.6 MB, the 1.3 MB
 * app chunk among them) though it runs four. A specifier computed at run time is left
 * to the moment the import runs; it still resolves against the importing chunk.
 * Measured: `--version` 65 → 40 ms, a headless run's first model call
 * −14 ms and −5 MB. A process running the bundle with narrowed permissions (the native
 * window's child) needs read access to the bundle's folder for those imports.
 */

/** Rewrites `import("./<chunk>")` for each chunk file in `dir`; returns how many. */
export async function deferChunkImports(dir: string): Promise<number> {
  const names = new Set<string>();
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".js")) names.add(e.name);
  }
  let count = 0;
  for (const name of names) {
    const path = `${dir}/${name}`;
    const text = await Deno.readTextFile(path);
    // Only imports of a chunk this build wrote: a string that merely looks like one in
    // some other text stays as it is (the name must be one of the files).
    const next = text.replace(/\bimport\("\.\/([\w.-]+\.js)"\)/g, (whole, file: string) => {
      if (!names.has(file)) return whole;
      count++;
      return `import(String("./${file}"))`;
    });
    if (next !== text) await Deno.writeTextFile(path, next);
  }
  return count;
}
