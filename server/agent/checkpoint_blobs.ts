/**
 * The checkpoint store's content-addressed blobs, each content stored once and shared by
 * every turn, task and workspace index that names it.
 *
 * New blobs are appended to pack files (`packs/<n>.pack`), each with an append-only
 * index (`packs/<n>.idx`, one `hash offset length` line per blob, written after the
 * bytes, so a torn last line after a crash is ignored and never names missing bytes).
 * One file per blob cost ~250 µs of file creation each: 5–10 s for the first snapshot
 * of a 20 000-file workspace; appending to one file costs the bytes only.
 * Blobs of older versions (`<first 2 hex>/<sha256>` files) are still read and collected.
 *
 * All file access is synchronous (no await inside a put or a read), so a collection,
 * which runs in slices, never sees half of one.
 */
import { join } from "../../lib/path.ts";
import { contentHashHex } from "../../lib/content_hash.ts";

const HASH = /^[0-9a-f]{64}$/;
const LINE = /^([0-9a-f]{64}) (\d+) (\d+)$/;
/** A pack is closed (and a new one started) beyond this size. */
const PACK_MAX = 256 * 1024 * 1024;
/** Blobs put this recently are never collected (see `recent`). */
const GRACE_MS = 60_000;

interface Loc {
  pack: number;
  off: number;
  len: number;
}

interface OpenPack {
  id: number;
  data: Deno.FsFile;
  idx: Deno.FsFile;
  size: number;
}

export class BlobStore {
  private locs = new Map<string, Loc>();
  /** Pack id → its size in bytes. */
  private packs = new Map<number, number>();
  private loose = new Map<string, number>();
  private open: OpenPack | null = null;
  private loaded = false;
  /** While a collection runs: hashes put or found since it started (never removed by it). */
  private pins: Set<string> | null = null;
  /** Counts reads of workspace files (tests check that unchanged files are not re-read). */
  hashed = 0;
  /**
   * When each blob was last put (this process, the last `graceMs`): a collection
   * keeps them, since whoever put one may not have written the row naming it yet.
   */
  private recent = new Map<string, number>();
  /** How long a put blob is kept whatever names it (tests set 0). */
  graceMs = GRACE_MS;

  constructor(readonly dir: string) {}

  private get packDir(): string {
    return join(this.dir, "packs");
  }

  /** Bytes on disk: the packs (garbage included until collected) and loose blobs. */
  get bytes(): number {
    this.load();
    let n = 0;
    for (const s of this.packs.values()) n += s;
    for (const s of this.loose.values()) n += s;
    return n;
  }

  /** How many blobs are stored. */
  get count(): number {
    this.load();
    return this.locs.size + this.loose.size;
  }

  /** Reads the pack indexes and lists loose blobs (once). */
  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    for (const e of readDirOr(this.packDir)) {
      const m = /^(\d+)\.pack$/.exec(e.name);
      if (!m) continue;
      const id = Number(m[1]);
      const size = sizeOr(join(this.packDir, e.name));
      this.packs.set(id, size);
      let text = "";
      try {
        text = Deno.readTextFileSync(join(this.packDir, `${id}.idx`));
      } catch { /* no index: its bytes are garbage, collected later */ }
      for (const line of text.split("\n")) {
        const l = LINE.exec(line);
        if (!l) continue;
        const off = Number(l[2]), len = Number(l[3]);
        if (off + len <= size) this.locs.set(l[1], { pack: id, off, len });
      }
    }
    for (const s of readDirOr(this.dir)) {
      if (!s.isDirectory || !/^[0-9a-f]{2}$/.test(s.name)) continue;
      for (const n of readDirOr(join(this.dir, s.name))) {
        if (HASH.test(n.name)) this.loose.set(n.name, sizeOr(this.loosePath(n.name)));
      }
    }
  }

  private loosePath(hash: string): string {
    return join(this.dir, hash.slice(0, 2), hash);
  }

  has(hash: string): boolean {
    this.load();
    return this.locs.has(hash) || this.loose.has(hash);
  }

  /** Every stored hash. */
  *hashes(): Generator<string> {
    this.load();
    yield* this.locs.keys();
    yield* this.loose.keys();
  }

  /** The bytes kept under `hash`, or null when they are not (or no longer) kept. */
  readSync(hash: string): Uint8Array | null {
    if (!HASH.test(hash)) return null;
    this.load();
    const loc = this.locs.get(hash);
    if (!loc) {
      if (!this.loose.has(hash)) return null;
      try {
        return Deno.readFileSync(this.loosePath(hash));
      } catch {
        return null;
      }
    }
    const f = Deno.openSync(join(this.packDir, `${loc.pack}.pack`));
    try {
      f.seekSync(loc.off, Deno.SeekMode.Start);
      const buf = new Uint8Array(loc.len);
      let got = 0;
      while (got < loc.len) {
        const n = f.readSync(buf.subarray(got));
        if (!n) return null;
        got += n;
      }
      return buf;
    } finally {
      f.close();
    }
  }

  read(hash: string): Promise<Uint8Array | null> {
    return Promise.resolve(this.readSync(hash));
  }

  /** Marks `hash` as in use (a collection under way keeps it). */
  touch(hash: string): void {
    this.pins?.add(hash);
  }

  /** Stores `bytes` once; returns their hash. */
  put(bytes: Uint8Array): string {
    return this.putAs(contentHashHex(bytes), bytes);
  }

  /** Reads a workspace file and stores it; returns its hash. */
  putFile(abs: string): string {
    this.hashed++;
    return this.put(Deno.readFileSync(abs));
  }

  private putAs(hash: string, bytes: Uint8Array): string {
    this.pins?.add(hash);
    this.recent.set(hash, Date.now());
    if (this.has(hash)) return hash;
    const p = this.packFor(bytes.length);
    writeAll(p.data, bytes);
    writeAll(p.idx, new TextEncoder().encode(`${hash} ${p.size} ${bytes.length}\n`));
    this.locs.set(hash, { pack: p.id, off: p.size, len: bytes.length });
    p.size += bytes.length;
    this.packs.set(p.id, p.size);
    return hash;
  }

  /** The pack new bytes go to (a new one when there is none or it is full). */
  private packFor(len: number): OpenPack {
    if (this.open && this.open.size + len <= PACK_MAX) return this.open;
    this.closePack();
    Deno.mkdirSync(this.packDir, { recursive: true });
    const id = Math.max(0, ...this.packs.keys()) + 1;
    const opts = { create: true, append: true } as const;
    const data = Deno.openSync(join(this.packDir, `${id}.pack`), opts);
    const idx = Deno.openSync(join(this.packDir, `${id}.idx`), opts);
    this.open = { id, data, idx, size: data.statSync().size };
    this.packs.set(id, this.open.size);
    return this.open;
  }

  /** Closes the pack being written (shutdown; a collection starts a fresh one). */
  closePack(): void {
    this.open?.data.close();
    this.open?.idx.close();
    this.open = null;
  }

  /**
   * Removes every blob not in `live` (nor put since the collection began). A pack whose
   * blobs are all dead is deleted; one that is mostly dead has its live blobs copied to
   * a new pack first, at most `copyBudget` bytes per collection (bounded work).
   * `tick` yields between steps (the server stays responsive).
   */
  async collect(
    live: Set<string>,
    tick: () => Promise<void> | void,
    copyBudget = 64 * 1024 * 1024,
  ): Promise<{ removed: number; freed: number }> {
    this.load();
    this.closePack();
    this.pins = new Set();
    // A grace of 0 protects nothing, not even a blob put in this very millisecond.
    const since = Date.now() - this.graceMs;
    for (const [h, at] of this.recent) if (at <= since) this.recent.delete(h);
    const keep = (h: string) => live.has(h) || this.pins!.has(h) || this.recent.has(h);
    let removed = 0, freed = 0;
    try {
      for (const [hash, size] of [...this.loose]) {
        const t = tick();
        if (t) await t;
        if (keep(hash)) continue;
        try {
          Deno.removeSync(this.loosePath(hash));
        } catch { /* already gone */ }
        this.loose.delete(hash);
        removed++;
        freed += size;
      }
      const byPack = new Map<number, string[]>();
      for (const [hash, loc] of this.locs) {
        byPack.set(loc.pack, [...(byPack.get(loc.pack) ?? []), hash]);
      }
      for (const [id, size] of [...this.packs]) {
        const t = tick();
        if (t) await t;
        if (this.open?.id === id) continue;
        const hashes = byPack.get(id) ?? [];
        let liveBytes = 0;
        for (const h of hashes) if (keep(h)) liveBytes += this.locs.get(h)!.len;
        if (liveBytes > size / 2 || liveBytes > copyBudget) {
          // Mostly live (or no copy budget left): the dead blobs leave its index now,
          // their bytes once the pack is mostly dead.
          const dead = hashes.filter((h) => !keep(h));
          if (dead.length) this.rewriteIndex(id, hashes.filter(keep));
          for (const h of dead) this.locs.delete(h);
          removed += dead.length;
          continue;
        }
        copyBudget -= liveBytes;
        // Synchronous from here to the deletion: no put or read can come in between.
        for (const h of hashes) {
          if (!keep(h)) {
            this.locs.delete(h);
            removed++;
            continue;
          }
          const bytes = this.readSync(h);
          this.locs.delete(h);
          if (bytes) this.putAs(h, bytes);
        }
        freed += size - liveBytes;
        this.removePack(id);
      }
    } finally {
      this.pins = null;
      this.closePack();
    }
    return { removed, freed };
  }

  private rewriteIndex(id: number, hashes: string[]): void {
    const file = join(this.packDir, `${id}.idx`);
    const lines = hashes.map((h) => {
      const l = this.locs.get(h)!;
      return `${h} ${l.off} ${l.len}\n`;
    });
    const tmp = `${file}.${crypto.randomUUID()}.tmp`;
    Deno.writeTextFileSync(tmp, lines.join(""));
    Deno.renameSync(tmp, file);
  }

  private removePack(id: number): void {
    for (const ext of ["pack", "idx"]) {
      try {
        Deno.removeSync(join(this.packDir, `${id}.${ext}`));
      } catch { /* already gone */ }
    }
    this.packs.delete(id);
  }
}

function readDirOr(dir: string): Deno.DirEntry[] {
  try {
    return [...Deno.readDirSync(dir)];
  } catch {
    return [];
  }
}

function sizeOr(p: string): number {
  try {
    return Deno.statSync(p).size;
  } catch {
    return 0;
  }
}

function writeAll(f: Deno.FsFile, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += f.writeSync(bytes.subarray(done));
}
