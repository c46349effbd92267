/**
 * The files of one turn's snapshot, taken without copying the stat index's result: a copy
 * of 20 000 entries cost 2–4 ms a turn, more than the rest of a watched turn's snapshot
 * and comparison together.
 *
 * A view shares its base (the result it was taken from) with the index and with other
 * views. The index goes on updating that base in place at later turns; before it changes
 * an entry it calls {@link SnapshotFiles.keep} on every live view, which keeps the entry
 * as it was. What the view's owner changes (the comparison after a command) stays in the
 * view alone. So a view reads as a copy taken when it was made, changed only by its owner.
 */
/** One snapshot's files; `E`: an entry of the stat index (stat_index.ts's ScanEntry). */
export class SnapshotFiles<E> {
  /** Entries that differ from the base's: kept before the base changed, or set here (null: none). */
  private own = new Map<string, E | null>();
  /** Set once the owner no longer reads it (the index stops keeping entries for it). */
  released = false;

  constructor(private base: ReadonlyMap<string, E>) {}

  get(abs: string): E | undefined {
    const e = this.own.get(abs);
    return e === undefined ? this.base.get(abs) : e ?? undefined;
  }

  set(abs: string, e: E): void {
    this.own.set(abs, e);
  }

  delete(abs: string): void {
    this.own.set(abs, null);
  }

  /** The base is about to change `abs`: this view keeps what it has now. */
  keep(abs: string): void {
    if (!this.own.has(abs)) this.own.set(abs, this.base.get(abs) ?? null);
  }

  release(): void {
    this.released = true;
  }

  get size(): number {
    let n = this.base.size;
    for (const [abs, e] of this.own) n += (e ? 1 : 0) - (this.base.has(abs) ? 1 : 0);
    return n;
  }

  /**
   * Every entry. Read it through without awaiting in between: an update of the base
   * between two steps could make it skip the entry it changes.
   */
  *[Symbol.iterator](): Generator<[string, E]> {
    for (const [abs, e] of this.own) if (e) yield [abs, e];
    for (const [abs, e] of this.base) if (!this.own.has(abs)) yield [abs, e];
  }

  *values(): Generator<E> {
    for (const [, e] of this) yield e;
  }
}

/** The views taken of one base, each told before the base changes an entry. */
export class SnapshotViews<E> {
  private views = new Set<WeakRef<SnapshotFiles<E>>>();

  /** A new view of `base` (which must be the base of every view here). */
  take(base: ReadonlyMap<string, E>): SnapshotFiles<E> {
    const v = new SnapshotFiles(base);
    this.views.add(new WeakRef(v));
    return v;
  }

  /** Call before changing `abs` in the base. Views released or collected are forgotten. */
  keep(abs: string): void {
    for (const ref of this.views) {
      const v = ref.deref();
      if (!v || v.released) this.views.delete(ref);
      else v.keep(abs);
    }
  }
}
