/** Tools that run inside permission-narrowed workers (file system or network). */
import type { Tool } from "./types.ts";
import { listDir } from "./list_dir.ts";
import { readFile } from "./read_file.ts";
import { writeFile } from "./write_file.ts";
import { editFile } from "./edit_file.ts";
import { deleteFile } from "./delete_file.ts";
import { applyPatch } from "./apply_patch.ts";
import { glob } from "./glob.ts";
import { grep } from "./grep.ts";
import { webfetch } from "./web/webfetch.ts";
import { websearch } from "./web/websearch.ts";

export const WORKER_TOOLS: Record<string, Tool> = Object.fromEntries(
  [listDir, readFile, glob, grep, writeFile, editFile, deleteFile, applyPatch, webfetch, websearch]
    .map((
      t,
    ) => [t.name, t]),
);
