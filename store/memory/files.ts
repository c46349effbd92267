/**
 * Memory files: one Markdown file with a frontmatter per memory, the source
 * of truth (people may edit them by hand; the FTS index follows). Rules kept here:
 * - a file that does not parse is a problem of its bucket: listed as such, never
 *   overwritten, accepted or rewritten (only the user may move it to the trash);
 * - writes are atomic (temporary file + rename) and never follow a symlink;
 * - delete and wipe move files to `<memory>/.trash/<bucket>/` — nothing is lost.
 */
import { join } from "../../lib/path.ts";
import {
  MEMORY_ID,
  MEMORY_LIMITS,
  MEMORY_SOURCES,
  MEMORY_TYPES,
  type MemoryItem,
  type MemoryProblem,
  type MemoryScope,
  type MemorySource,
  type MemoryType,
} from "../../protocol/memory.ts";
import { formatFrontmatter, parseFrontmatter } from "./frontmatter.ts";
import { type Bucket, bucketOf, MemoryError, memoryFile } from "./paths.ts";
import { type MemoryIndexRepo, textOf } from "./index_repo.ts";
import { byCodeUnit } from "../../lib/compare.ts";

export interface MemoryFields {
  title: string;
  description: string;
  type: MemoryType;
  body: string;
}

export interface BucketContents {
  items: MemoryItem[];
  problems: MemoryProblem[];
}

const L = MEMORY_LIMITS;

/** Checks a memory's fields (also what the model sends); throws with the first problem. */
export function checkFields(f: MemoryFields): MemoryFields {
  const title = f.title.trim().replace(/\s+/g, " ");
  if (!title) throw new MemoryError("invalid", "title must not be blank");
  if (title.length > L.titleChars) {
    throw new MemoryError("invalid", `title must have at most ${L.titleChars} characters`);
  }
  const description = f.description.trim().replace(/\s+/g, " ");
  if (description.length > L.descriptionChars) {
    throw new MemoryError(
      "invalid",
      `description must have at most ${L.descriptionChars} characters`,
    );
  }
  if (!MEMORY_TYPES.includes(f.type)) {
    throw new MemoryError("invalid", `type must be one of ${MEMORY_TYPES.join(", ")}`);
  }
  if (f.body.length > L.bodyChars) {
    throw new MemoryError("invalid", `body must have at most ${L.bodyChars} characters`);
  }
  return { title, description, type: f.type, body: f.body.trim() };
}

/** A file's memory, or why it is not one. */
export function memoryOfText(
  id: string,
  scope: MemoryScope,
  text: string,
  mtime: string,
): MemoryItem | string {
  const fm = parseFrontmatter(text);
  if (!fm.ok) return fm.error;
  const m = fm.meta;
  const str = (k: string) => (typeof m[k] === "string" ? m[k] as string : undefined);
  const title = str("title")?.trim();
  if (!title) return 'the frontmatter has no "title"';
  if (title.length > L.titleChars) return `the title is longer than ${L.titleChars} characters`;
  const type = m.type ?? "user";
  if (!MEMORY_TYPES.includes(type as MemoryType)) {
    return `"type" must be one of ${MEMORY_TYPES.join(", ")}`;
  }
  if (m.unreviewed !== undefined && typeof m.unreviewed !== "boolean") {
    return '"unreviewed" must be true or false';
  }
  const source = m.source ?? "user";
  if (!MEMORY_SOURCES.includes(source as MemorySource)) {
    return `"source" must be one of ${MEMORY_SOURCES.join(", ")}`;
  }
  const body = fm.body.trim();
  return {
    id,
    scope,
    title,
    description: (str("description") ?? "").trim(),
    type: type as MemoryType,
    // A file without the flag was written by a person: it counts as accepted.
    unreviewed: m.unreviewed === true,
    source: source as MemorySource,
    createdAt: str("created") ?? mtime,
    updatedAt: str("updated") ?? mtime,
    preview: body.slice(0, L.previewChars),
    body,
  };
}

function fileText(item: MemoryItem): string {
  return formatFrontmatter({
    title: item.title,
    description: item.description,
    type: item.type,
    unreviewed: item.unreviewed,
    source: item.source,
    created: item.createdAt,
    updated: item.updatedAt,
  }, item.body);
}

/** An id from a title: its ASCII words joined by dashes (or `memory`), unique in `taken`. */
export function slugFor(title: string, taken: Set<string>): string {
  const base = title.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "").slice(0, 48).replace(/-+$/, "") || "memory";
  if (!taken.has(base)) return base;
  for (let n = 2;; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

const isNotFound = (e: unknown) => e instanceof Deno.errors.NotFound;

export class MemoryFiles {
  constructor(
    readonly root: string,
    private index: MemoryIndexRepo | null = null,
    private now: () => number = Date.now,
  ) {}

  bucket(scope: MemoryScope, projectPath?: string | null): Bucket {
    return bucketOf(this.root, scope, projectPath);
  }

  /** Every memory of the bucket (newest first) and the files that are not memories. */
  async list(b: Bucket): Promise<BucketContents> {
    const items: MemoryItem[] = [];
    const problems: MemoryProblem[] = [];
    let names: string[] = [];
    try {
      for (const e of Deno.readDirSync(b.dir)) if (e.name.endsWith(".md")) names.push(e.name);
    } catch (e) {
      if (!isNotFound(e)) problems.push({ file: b.dir, error: (e as Error).message });
    }
    names = names.sort().slice(0, L.perBucket * 2);
    for (const name of names) {
      const id = name.slice(0, -3);
      const r = await this.readFile(b, id, name);
      if (typeof r === "string") problems.push({ file: name, error: r });
      else if (r) items.push(r);
    }
    items.sort((a, c) => byCodeUnit(c.updatedAt, a.updatedAt) || byCodeUnit(a.id, c.id));
    this.index?.sync(b.key, items);
    return { items, problems };
  }

  /** One memory; throws not_found, or corrupt with the reason. */
  async read(b: Bucket, id: string): Promise<MemoryItem> {
    memoryFile(b, id);
    const r = await this.readFile(b, id, `${id}.md`);
    if (r === null) throw new MemoryError("not_found", `no memory "${id}" in ${b.scope} memory`);
    if (typeof r === "string") {
      throw new MemoryError(
        "corrupt",
        `memory "${id}" is corrupt (${r}); it is left as it is — fix or delete ${id}.md by hand`,
      );
    }
    return r;
  }

  /** A new memory (its id from the title unless given); refuses an existing id. */
  async create(
    b: Bucket,
    fields: MemoryFields,
    opts: { source: MemorySource; unreviewed: boolean; id?: string },
  ): Promise<MemoryItem> {
    const f = checkFields(fields);
    const names = this.names(b);
    if (names.size >= L.perBucket) {
      throw new MemoryError(
        "full",
        `the ${b.scope} memory holds ${L.perBucket} memories already; delete some first`,
      );
    }
    const id = opts.id ?? slugFor(f.title, names);
    memoryFile(b, id);
    if (names.has(id)) {
      throw new MemoryError("exists", `memory "${id}" exists already; update it instead`);
    }
    const at = new Date(this.now()).toISOString();
    const item: MemoryItem = {
      id,
      scope: b.scope,
      ...f,
      unreviewed: opts.unreviewed,
      source: opts.source,
      createdAt: at,
      updatedAt: at,
      preview: f.body.slice(0, L.previewChars),
    };
    await this.writeItem(b, item, true);
    return item;
  }

  /** Replaces a memory's fields; a corrupt file is refused (read throws). */
  async update(
    b: Bucket,
    id: string,
    fields: Partial<MemoryFields>,
    opts: { source: MemorySource; unreviewed: boolean },
  ): Promise<MemoryItem> {
    const old = await this.read(b, id);
    const f = checkFields({ ...old, ...fields });
    const item: MemoryItem = {
      ...old,
      ...f,
      unreviewed: opts.unreviewed,
      source: opts.source,
      updatedAt: new Date(this.now()).toISOString(),
      preview: f.body.slice(0, L.previewChars),
    };
    await this.writeItem(b, item, false);
    return item;
  }

  /** Marks a proposal as accepted by the user. */
  async accept(b: Bucket, id: string): Promise<MemoryItem> {
    const old = await this.read(b, id);
    if (!old.unreviewed) return old;
    const item = { ...old, unreviewed: false, updatedAt: new Date(this.now()).toISOString() };
    await this.writeItem(b, item, false);
    return item;
  }

  /**
   * Moves a memory's file to the trash. `corruptToo` lets the user remove a file that
   * does not parse (the model may not). Returns the trash path.
   */
  async remove(b: Bucket, id: string, opts: { corruptToo?: boolean } = {}): Promise<string> {
    const file = memoryFile(b, id);
    if (!opts.corruptToo) await this.read(b, id);
    else if (!this.lstatFile(file)) {
      throw new MemoryError("not_found", `no memory "${id}" in ${b.scope} memory`);
    }
    const dir = await this.trashDir(b);
    const dest = join(dir, `${this.stamp()}-${id}.md`);
    await Deno.rename(file, dest);
    return dest;
  }

  /** Moves every `.md` file of the bucket (corrupt ones too) into one trash folder. */
  async wipe(b: Bucket): Promise<{ moved: number; trash: string }> {
    const names = [...this.names(b)];
    const dir = join(await this.trashDir(b), `wipe-${this.stamp()}`);
    await Deno.mkdir(dir, { recursive: true });
    let moved = 0;
    for (const id of names) {
      const file = join(b.dir, `${id}.md`);
      if (!this.lstatFile(file)) continue;
      await Deno.rename(file, join(dir, `${id}.md`));
      moved++;
    }
    this.index?.sync(b.key, []);
    return { moved, trash: dir };
  }

  /** Search within a bucket: the FTS index when there is one, else a substring match. */
  async search(b: Bucket, q: string): Promise<{ item: MemoryItem; snippet: string }[]> {
    const { items } = await this.list(b);
    const query = q.trim();
    if (!query) return items.slice(0, L.searchResults).map((item) => ({ item, snippet: "" }));
    const byId = new Map(items.map((i) => [i.id, i]));
    const ids = this.index
      ? this.index.search(b.key, query, L.searchResults)
      : items.filter((i) => textOf(i).toLowerCase().includes(query.toLowerCase())).map((i) => i.id);
    return ids.flatMap((id) => {
      const item = byId.get(id);
      return item ? [{ item, snippet: snippetOf(textOf(item), query) }] : [];
    }).slice(0, L.searchResults);
  }

  /** Ids of the bucket's files (valid names only; others cannot be written anyway). */
  private names(b: Bucket): Set<string> {
    const out = new Set<string>();
    try {
      for (const e of Deno.readDirSync(b.dir)) {
        const id = e.name.endsWith(".md") ? e.name.slice(0, -3) : "";
        if (MEMORY_ID.test(id)) out.add(id);
      }
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    return out;
  }

  /** null = no such file; a string = why it is not a memory. */
  private async readFile(b: Bucket, id: string, name: string): Promise<MemoryItem | string | null> {
    if (!MEMORY_ID.test(id)) return "the file name is not a memory id (lower case, digits, dashes)";
    const file = join(b.dir, name);
    const st = await this.lstatFile(file);
    if (!st) return null;
    if (st.isSymlink) return "a symbolic link (memory files must be plain files)";
    if (!st.isFile) return "not a plain file";
    if (st.size > L.fileBytes) return `larger than ${L.fileBytes / 1024} KB`;
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(Deno.readFileSync(file));
    } catch (e) {
      return e instanceof TypeError ? "not UTF-8 text" : (e as Error).message;
    }
    const mtime = new Date(st.mtime?.getTime() ?? this.now()).toISOString();
    return memoryOfText(id, b.scope, text, mtime);
  }

  private lstatFile(file: string): Deno.FileInfo | null {
    try {
      return Deno.lstatSync(file);
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  /** Writes atomically; `fresh` = the file must not exist (an update replaces a plain file). */
  private async writeItem(b: Bucket, item: MemoryItem, fresh: boolean): Promise<void> {
    const file = memoryFile(b, item.id);
    await this.ensureDir(b);
    const st = this.lstatFile(file);
    if (fresh && st) throw new MemoryError("exists", `memory "${item.id}" exists already`);
    if (st && !st.isFile) {
      throw new MemoryError("refused", `${item.id}.md is not a plain file; it is left alone`);
    }
    const tmp = join(b.dir, `.${item.id}.${crypto.randomUUID().slice(0, 8)}.tmp`);
    await Deno.writeTextFile(tmp, fileText(item), { createNew: true, mode: 0o600 });
    if (!fresh) return await Deno.rename(tmp, file);
    // A new file never replaces one that appeared meanwhile (link fails if it exists).
    try {
      await Deno.link(tmp, file);
    } catch (e) {
      if (e instanceof Deno.errors.AlreadyExists) {
        throw new MemoryError("exists", `memory "${item.id}" exists already`);
      }
      throw e;
    } finally {
      await Deno.remove(tmp).catch(() => {});
    }
  }

  /** Creates the bucket folder; refuses one reached through a symlink. */
  private async ensureDir(b: Bucket): Promise<void> {
    await Deno.mkdir(b.dir, { recursive: true, mode: 0o700 });
    const rel = b.key.split("/");
    let p = this.root;
    for (const part of ["", ...rel]) {
      p = part ? join(p, part) : p;
      const st = Deno.lstatSync(p);
      if (st.isSymlink || !st.isDirectory) {
        throw new MemoryError(
          "refused",
          `${p} is not a plain folder; memories are not written there`,
        );
      }
    }
    if (b.projectPath) {
      // Which folder a hash stands for (for people looking at the data dir).
      const marker = join(b.dir, ".workdir.json");
      if (!this.lstatFile(marker)) {
        await Deno.writeTextFile(marker, JSON.stringify({ path: b.projectPath }) + "\n");
      }
    }
  }

  private async trashDir(b: Bucket): Promise<string> {
    const dir = join(this.root, ".trash", b.key);
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  private stamp(): string {
    return new Date(this.now()).toISOString().replace(/[:.]/g, "-");
  }
}

function snippetOf(text: string, q: string): string {
  const flat = text.replace(/\s+/g, " ");
  const at = flat.toLowerCase().indexOf(q.toLowerCase());
  if (at < 0) return flat.slice(0, 120);
  const from = Math.max(0, at - 50);
  return (from > 0 ? "…" : "") + flat.slice(from, at + q.length + 70) +
    (at + q.length + 70 < flat.length ? "…" : "");
}
