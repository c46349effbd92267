/**
 * What each build step reads, in one place: the steps' own stamps and the quick check
 * of `deno task start` (scripts/build.ts) must agree, or an edit could go unnoticed.
 */

/** The UI bundle: its sources, the protocol it imports, the import map and lock, the build. */
export const UI_INPUTS = {
  dirs: ["ui", "protocol"],
  files: [
    "deno.json",
    "deno.lock",
    "scripts/build-ui.ts",
    "scripts/build/merge_eager.ts",
    "scripts/build/first_screen.ts",
    "scripts/build/css_split.ts",
  ],
  skip: (rel: string) => rel === "ui/dist",
};

/**
 * The program bundle: the program's sources, the built UI, the import map and lock, and
 * how it is built (the build scripts and their helpers).
 */
export const SERVER_INPUTS = {
  dirs: ["server", "tools", "store", "protocol", "lib", "ui/dist", "scripts/build"],
  files: ["main.ts", "deno.json", "deno.lock", "scripts/build-server.ts"],
};
