/**
 * Notes on disk: `<root>/<notebook>/<note>.md`. The files are the source of
 * truth — nothing is cached, so an edit in another editor shows at the next read. Every
 * name is checked before it becomes a path, symlinks are never followed, writes are
 * atomic (a temp file renamed over), a save names the version it was based on (a file
 * changed meanwhile is a conflict, not overwritten) and a file too big or not UTF-8 is
 * reported and left alone. Deletes move to `<root>/.trash/`.
 */
import { join } from "../../lib/path.ts";
import { plainMarkdown } from "../plain_text.ts";
import {
  DEFAULT_NOTEBOOK,
  NOTE_NAME,
  type NotebookInfo,
  type NoteDoc,
  type NoteProblem,
  NOTES_LIMITS,
  type NoteSummary,
} from "../../protocol/notes.ts";

export type NotesErrorCode = "invalid" | "not_found" | "exists" | "corrupt" | "conflict" | "full";

export class NotesError extends Error {
  constructor(readonly code: NotesErrorCode, message: string) {
    super(message);
  }
}

/** Names Windows refuses as files, whatever the extension. */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

/** Throws unless `name` is a safe notebook or note name. */
export function checkName(name: string, what: "notebook" | "note"): string {
  if (!NOTE_NAME.test(name) || RESERVED.test(name) || name.length > NOTES_LIMITS.nameChars) {
    throw new NotesError(
      "invalid",
      `"${
        name.slice(0, 100)
      }" is not a valid ${what} name: use letters, digits, spaces and - _ . , ( ) & + ' (no leading dot, no slashes)`,
    );
  }
  return name;
}

async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

async function versionOf(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest).slice(0, 16), (b) => b.toString(16).padStart(2, "0"))
    .join("");
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Bytes of each file a notebook's list reads (title and preview come from its start). */
const HEAD_BYTES = 8192;

function titleOf(name: string, body: string): string {
  const h = body.match(/^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/m);
  return (h?.[1] ?? name).slice(0, 200);
}

function previewOf(body: string): string {
  // The title is shown apart; the rest as the words a reader sees.
  const rest = body.slice(0, 4000).replace(/^\s{0,3}#{1,6}\s+.*$/m, "");
  return plainMarkdown(rest).replace(/\s+/g, " ").trim().slice(0, NOTES_LIMITS.previewChars);
}

/** Throws when `body` would make a file too big to read back as a note. */
function checkSize(body: string): void {
  const bytes = new TextEncoder().encode(body).length;
  if (bytes > NOTES_LIMITS.fileBytes) {
    throw new NotesError(
      "full",
      `the note would be ${bytes} bytes, more than the ${NOTES_LIMITS.fileBytes} a note may have`,
    );
  }
}

export class NotesFiles {
  /** Saves of one file run one at a time (check-then-write must not interleave). */
  #locks = new Map<string, Promise<unknown>>();

  constructor(readonly root: string) {}

  async #locked<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const before = this.#locks.get(key) ?? Promise.resolve();
    const run = before.catch(() => {}).then(fn);
    this.#locks.set(key, run);
    try {
      return await run;
    } finally {
      if (this.#locks.get(key) === run) this.#locks.delete(key);
    }
  }

  /** Makes the root and the default notebook when missing. */
  async ensure(): Promise<void> {
    await Deno.mkdir(join(this.root, DEFAULT_NOTEBOOK), { recursive: true });
  }

  /** The folder of an existing notebook (a real directory, not a link). */
  async #notebookDir(notebook: string): Promise<string> {
    const dir = join(this.root, checkName(notebook, "notebook"));
    // The default notebook is always there, even before the page was first opened.
    if (notebook === DEFAULT_NOTEBOOK) await this.ensure();
    const st = await lstatOrNull(dir);
    if (!st || !st.isDirectory) {
      throw new NotesError("not_found", `there is no notebook "${notebook}"`);
    }
    return dir;
  }

  async #notePath(notebook: string, note: string): Promise<string> {
    return join(await this.#notebookDir(notebook), `${checkName(note, "note")}.md`);
  }

  async listNotebooks(): Promise<{ notebooks: NotebookInfo[]; problems: NoteProblem[] }> {
    await this.ensure();
    const notebooks: NotebookInfo[] = [];
    const problems: NoteProblem[] = [];
    for await (const e of Deno.readDir(this.root)) {
      if (e.name.startsWith(".")) continue;
      if (!e.isDirectory && !e.isSymlink) continue;
      if (e.isSymlink || !NOTE_NAME.test(e.name)) {
        problems.push({ file: e.name, error: "not a valid notebook name; left alone" });
        continue;
      }
      let notes = 0;
      for await (const f of Deno.readDir(join(this.root, e.name))) {
        if (f.isFile && f.name.endsWith(".md") && !f.name.startsWith(".")) notes++;
      }
      notebooks.push({ name: e.name, notes });
    }
    notebooks.sort((a, b) =>
      a.name === DEFAULT_NOTEBOOK
        ? -1
        : b.name === DEFAULT_NOTEBOOK
        ? 1
        : a.name.localeCompare(b.name)
    );
    return { notebooks, problems };
  }

  async createNotebook(name: string): Promise<void> {
    checkName(name, "notebook");
    const { notebooks } = await this.listNotebooks();
    if (notebooks.length >= NOTES_LIMITS.notebooks) {
      throw new NotesError("full", `at most ${NOTES_LIMITS.notebooks} notebooks`);
    }
    try {
      await Deno.mkdir(join(this.root, name));
    } catch (e) {
      if (e instanceof Deno.errors.AlreadyExists) {
        throw new NotesError("exists", `a notebook "${name}" already exists`);
      }
      throw e;
    }
  }

  async renameNotebook(name: string, to: string): Promise<void> {
    if (name === DEFAULT_NOTEBOOK) {
      throw new NotesError("invalid", "the default notebook keeps its name");
    }
    const from = await this.#notebookDir(name);
    const target = join(this.root, checkName(to, "notebook"));
    if (from === target) return;
    const st = await Deno.lstat(from);
    const there = await lstatOrNull(target);
    // As for notes: only this very folder under another case may be "there" already.
    if (there && !(there.ino !== null && there.ino === st.ino && there.dev === st.dev)) {
      throw new NotesError("exists", `a notebook "${to}" already exists`);
    }
    await Deno.rename(from, target);
  }

  async #toTrash(path: string, label: string): Promise<void> {
    const trash = join(this.root, ".trash");
    await Deno.mkdir(trash, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    await Deno.rename(path, join(trash, `${stamp}-${label}`));
  }

  async deleteNotebook(name: string): Promise<void> {
    await this.#toTrash(await this.#notebookDir(name), name);
    await this.ensure();
  }

  async listNotes(notebook: string): Promise<
    { dir: string; notes: NoteSummary[]; problems: NoteProblem[] }
  > {
    const dir = await this.#notebookDir(notebook);
    const notes: NoteSummary[] = [];
    const problems: NoteProblem[] = [];
    for await (const e of Deno.readDir(dir)) {
      if (e.name.startsWith(".") || !e.name.endsWith(".md")) continue;
      const name = e.name.slice(0, -3);
      if (!e.isFile || !NOTE_NAME.test(name)) {
        problems.push({ file: e.name, error: "not a valid note (name or kind); left alone" });
        continue;
      }
      if (notes.length >= NOTES_LIMITS.notesPerNotebook) {
        problems.push({ file: e.name, error: "beyond the notes listed per notebook" });
        continue;
      }
      try {
        const head = await this.#head(join(dir, e.name), name);
        notes.push({
          name,
          title: titleOf(name, head.text),
          preview: previewOf(head.text),
          size: head.size,
          updatedAt: head.updatedAt,
        });
      } catch (err) {
        problems.push({ file: e.name, error: (err as Error).message });
      }
    }
    notes.sort((a, b) => b.updatedAt - a.updatedAt || a.name.localeCompare(b.name));
    return { dir, notes, problems };
  }

  /**
   * The start of a note for its card: a list reads at most {@link HEAD_BYTES} of each
   * file, not whole files (a notebook may hold many big notes).
   */
  async #head(
    path: string,
    note: string,
  ): Promise<{ text: string; size: number; updatedAt: number }> {
    const st = await Deno.lstat(path);
    if (!st.isFile) throw new NotesError("not_found", `there is no note "${note}"`);
    if (st.size > NOTES_LIMITS.fileBytes) {
      throw new NotesError(
        "corrupt",
        `${note}.md is ${st.size} bytes, more than the ${NOTES_LIMITS.fileBytes} a note may have; left alone`,
      );
    }
    const buf = new Uint8Array(Math.min(st.size, HEAD_BYTES));
    const file = await Deno.open(path, { read: true });
    let n = 0;
    try {
      while (n < buf.length) {
        const got = await file.read(buf.subarray(n));
        if (got === null) break;
        n += got;
      }
    } finally {
      file.close();
    }
    let text: string;
    try {
      // `stream`: a character cut at the end of the window is not an error.
      text = new TextDecoder("utf-8", { fatal: true }).decode(buf.subarray(0, n), {
        stream: n < st.size,
      });
    } catch {
      throw new NotesError("corrupt", `${note}.md is not UTF-8 text; left alone`);
    }
    return { text, size: st.size, updatedAt: st.mtime?.getTime() ?? 0 };
  }

  async read(notebook: string, note: string): Promise<NoteDoc> {
    const path = await this.#notePath(notebook, note);
    const st = await lstatOrNull(path);
    if (!st || !st.isFile) throw new NotesError("not_found", `there is no note "${note}"`);
    if (st.size > NOTES_LIMITS.fileBytes) {
      throw new NotesError(
        "corrupt",
        `${note}.md is ${st.size} bytes, more than the ${NOTES_LIMITS.fileBytes} a note may have; left alone`,
      );
    }
    const bytes = await Deno.readFile(path);
    let body: string;
    try {
      body = decoder.decode(bytes);
    } catch {
      throw new NotesError("corrupt", `${note}.md is not UTF-8 text; left alone`);
    }
    return {
      notebook,
      name: note,
      body,
      version: await versionOf(bytes),
      updatedAt: st.mtime?.getTime() ?? 0,
    };
  }

  /** A new note; `name` taken as it is when free, else "name 2", "name 3"… */
  async create(notebook: string, name = "Untitled", body = ""): Promise<NoteDoc> {
    const dir = await this.#notebookDir(notebook);
    checkName(name, "note");
    checkSize(body);
    let count = 0;
    for await (const e of Deno.readDir(dir)) if (e.name.endsWith(".md")) count++;
    if (count >= NOTES_LIMITS.notesPerNotebook) {
      throw new NotesError("full", `at most ${NOTES_LIMITS.notesPerNotebook} notes per notebook`);
    }
    for (let i = 1; i < 1000; i++) {
      const suffix = i === 1 ? "" : ` ${i}`;
      const candidate = `${
        name.slice(0, NOTES_LIMITS.nameChars - suffix.length).trimEnd()
      }${suffix}`;
      try {
        await Deno.writeTextFile(join(dir, `${candidate}.md`), body, { createNew: true });
        return await this.read(notebook, candidate);
      } catch (e) {
        if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
      }
    }
    throw new NotesError("exists", `no free name like "${name}"`);
  }

  /**
   * Writes `body` when the file is still at `baseVersion`; a changed, deleted or corrupt
   * file is refused (nothing written).
   */
  save(
    notebook: string,
    note: string,
    body: string,
    baseVersion: string,
  ): Promise<{ version: string; updatedAt: number }> {
    return this.#locked(`${notebook}/${note}`, async () => {
      checkSize(body);
      let current: NoteDoc;
      try {
        current = await this.read(notebook, note);
      } catch (e) {
        if (e instanceof NotesError && e.code === "not_found") {
          throw new NotesError("conflict", `${note}.md was deleted or renamed on disk`);
        }
        throw e;
      }
      if (current.version !== baseVersion) {
        throw new NotesError(
          "conflict",
          `${note}.md changed on disk since it was opened; nothing was written`,
        );
      }
      const path = await this.#notePath(notebook, note);
      const tmp = join(
        await this.#notebookDir(notebook),
        `.${note}.md.${crypto.randomUUID().slice(0, 8)}.tmp`,
      );
      try {
        await Deno.writeTextFile(tmp, body, { createNew: true });
        await Deno.rename(tmp, path);
      } catch (e) {
        await Deno.remove(tmp).catch(() => {});
        throw e;
      }
      const doc = await this.read(notebook, note);
      return { version: doc.version, updatedAt: doc.updatedAt };
    });
  }

  async rename(notebook: string, note: string, to: string): Promise<void> {
    const from = await this.#notePath(notebook, note);
    const target = await this.#notePath(notebook, checkName(to, "note"));
    const st = await lstatOrNull(from);
    if (!st || !st.isFile) throw new NotesError("not_found", `there is no note "${note}"`);
    if (from === target) return;
    // A target that exists is another note — unless it is this very file under another
    // case on a case-insensitive disk (then the rename only changes the case).
    const there = await lstatOrNull(target);
    if (there && !(there.ino !== null && there.ino === st.ino && there.dev === st.dev)) {
      throw new NotesError("exists", `a note "${to}" already exists`);
    }
    await Deno.rename(from, target);
  }

  /** Moves a note (a corrupt one too) to the trash. */
  async remove(notebook: string, note: string): Promise<void> {
    const path = await this.#notePath(notebook, note);
    const st = await lstatOrNull(path);
    if (!st || st.isDirectory) throw new NotesError("not_found", `there is no note "${note}"`);
    await this.#toTrash(path, `${notebook}-${note}.md`);
  }
}
