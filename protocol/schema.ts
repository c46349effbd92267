/**
 * A tiny, dependency-free validator for client input. Pure: shared by the server
 * (to validate) and importable by the UI (for limits). Each schema checks a value
 * and returns the list of problems; an empty list means valid. Each schema also
 * carries the type of the values it accepts, so `Infer<typeof s>` is the args type
 * a handler gets: the schema is the one source of both.
 *
 * @example
 * const s = obj({ id: str({ max: 64 }), "tags?": arr(str({ max: 20 }), 8) });
 * check(s, { id: "x" }); // []
 * type S = Infer<typeof s>; // { id: string; tags?: string[] }
 */

/** Key of the phantom type; exists only for the compiler, never at run time. */
declare const TYPE: unique symbol;

export interface Schema<T = unknown> {
  /** Returns problems found at `path`; empty when the value is valid. */
  check(value: unknown, path: string): string[];
  /** Phantom: the type of a valid value (never set; read it with {@link Infer}). */
  readonly [TYPE]?: T;
}

/** The type of the values a schema accepts. */
export type Infer<S> = S extends Schema<infer T> ? T : never;

/** Field specs of {@link obj}: a key ending in `?` is optional. */
export type Fields = Record<string, Schema>;

/** Flattens an intersection so hovers and errors show one object type. */
type Flat<T> = { [K in keyof T]: T[K] } & unknown;

/** The object type of a field spec: `"b?"` becomes the optional key `b`. */
export type ObjOf<F extends Fields> = Flat<
  & { [K in keyof F as K extends `${string}?` ? never : K]: Infer<F[K]> }
  & { [K in keyof F as K extends `${infer N}?` ? N : never]?: Infer<F[K]> }
>;

const describe = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "array" : typeof v;

/** A string, optionally bounded in length and matched against a pattern. */
export function str(opts: { min?: number; max: number; pattern?: RegExp }): Schema<string> {
  return {
    check(v, path) {
      if (typeof v !== "string") return [`${path} must be a string, got ${describe(v)}`];
      if (v.length < (opts.min ?? 0)) return [`${path} must have at least ${opts.min} characters`];
      if (v.length > opts.max) return [`${path} must have at most ${opts.max} characters`];
      if (opts.pattern && !opts.pattern.test(v)) return [`${path} has an invalid format`];
      return [];
    },
  };
}

/** An integer within [min, max]. */
export function int(opts: { min: number; max: number }): Schema<number> {
  return {
    check(v, path) {
      if (typeof v !== "number" || !Number.isInteger(v)) {
        return [`${path} must be an integer, got ${describe(v)}`];
      }
      if (v < opts.min || v > opts.max) {
        return [`${path} must be between ${opts.min} and ${opts.max}`];
      }
      return [];
    },
  };
}

/** A boolean. */
export const bool: Schema<boolean> = {
  check: (v, path) =>
    typeof v === "boolean" ? [] : [`${path} must be a boolean, got ${describe(v)}`],
};

/** One of a fixed set of strings; typed as their literal union (`as const` arrays too). */
export function oneOf<const V extends readonly string[]>(values: V): Schema<V[number]> {
  return {
    check: (v, path) =>
      typeof v === "string" && values.includes(v)
        ? []
        : [`${path} must be one of ${values.join(", ")}`],
  };
}

/** `inner` or null. */
export function nullable<T>(inner: Schema<T>): Schema<T | null> {
  return { check: (v, path) => v === null ? [] : inner.check(v, path) };
}

/** Any JSON value whose serialised size is at most `maxBytes`. */
export function json(maxBytes: number): Schema<unknown> {
  return {
    check(v, path) {
      if (v === undefined) return [`${path} is required`];
      const size = new TextEncoder().encode(JSON.stringify(v)).length;
      return size > maxBytes ? [`${path} is too large (${size} > ${maxBytes} bytes)`] : [];
    },
  };
}

/** An array of `item`, at most `max` long. */
export function arr<T>(item: Schema<T>, max: number): Schema<T[]> {
  return {
    check(v, path) {
      if (!Array.isArray(v)) return [`${path} must be an array, got ${describe(v)}`];
      if (v.length > max) return [`${path} must have at most ${max} items`];
      return v.flatMap((x, i) => item.check(x, `${path}[${i}]`));
    },
  };
}

/**
 * An object with the given fields. Fields whose name ends in `?` are optional.
 * Unknown fields are rejected so typos never pass silently.
 */
export function obj<F extends Fields>(fields: F): Schema<ObjOf<F>> {
  const spec = Object.entries(fields).map(([k, s]) => ({
    key: k.endsWith("?") ? k.slice(0, -1) : k,
    optional: k.endsWith("?"),
    schema: s,
  }));
  const known = new Set(spec.map((f) => f.key));
  return {
    check(v, path) {
      if (typeof v !== "object" || v === null || Array.isArray(v)) {
        return [`${path} must be an object, got ${describe(v)}`];
      }
      const rec = v as Record<string, unknown>;
      const problems: string[] = [];
      for (const k of Object.keys(rec)) {
        if (!known.has(k)) problems.push(`${path}.${k} is not a known field`);
      }
      for (const f of spec) {
        const value = rec[f.key];
        if (value === undefined) {
          if (!f.optional) problems.push(`${path}.${f.key} is required`);
          continue;
        }
        problems.push(...f.schema.check(value, `${path}.${f.key}`));
      }
      return problems;
    },
  };
}

/** Runs a schema at the root path `args`. */
export function check(schema: Schema<unknown>, value: unknown): string[] {
  return schema.check(value, "args");
}

/**
 * The value typed as the schema's type, or the problems found (root path `args`).
 * The one place where checked input becomes typed: a value the schema accepts has
 * its type, which is what `Schema<T>` promises.
 */
export function parse<T>(
  schema: Schema<T>,
  value: unknown,
): { ok: true; value: T } | { ok: false; problems: string[] } {
  const problems = check(schema, value);
  return problems.length ? { ok: false, problems } : { ok: true, value: value as T };
}
