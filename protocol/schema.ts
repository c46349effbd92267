/**
 * A tiny, dependency-free validator for client input and tool arguments. Pure: shared
 * by the server (to validate) and importable by the UI (for limits). Each schema checks
 * a value and returns the list of problems; an empty list means valid. Each schema also
 * carries the type of the values it accepts, so `Infer<typeof s>` is the args type a
 * handler gets: the schema is the one source of both. `toJsonSchema()` gives the same
 * rules as JSON Schema (what a model is told about a tool's arguments). A bound of
 * `Infinity` means "no bound" and is left out of the JSON Schema.
 *
 * @example
 * const s = obj({ id: str({ max: 64 }), "n?": doc(int({ min: 1, max: 9 }), "How many") });
 * check(s, { id: "x" }); // []
 * type S = Infer<typeof s>; // { id: string; n?: number }
 * s.toJsonSchema(); // {type: "object", properties: {id: …, n: {…, description: "How many"}}, …}
 */

/** Key of the phantom type; exists only for the compiler, never at run time. */
declare const TYPE: unique symbol;

/** A JSON Schema object (the subset these builders produce). */
export type JsonSchema = Record<string, unknown>;

export interface Schema<T = unknown> {
  /** Returns problems found at `path`; empty when the value is valid. */
  check(value: unknown, path: string): string[];
  /** The same rules as JSON Schema. */
  toJsonSchema(): JsonSchema;
  /** Phantom: the type of a valid value (never set; read it with {@link Infer}). */
  readonly [TYPE]?: T;
}

/** Bounds that are set (finite) as JSON Schema keywords. */
function bounds(pairs: Record<string, number | undefined>): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(pairs)) if (v !== undefined && Number.isFinite(v)) out[k] = v;
  return out;
}

/** "between 1 and 9", "at least 1", "at most 9" for the bounds that are set. */
function range(min: number, max: number): string {
  if (!Number.isFinite(max)) return `at least ${min}`;
  if (!Number.isFinite(min)) return `at most ${max}`;
  return `between ${min} and ${max}`;
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
    toJsonSchema: () => ({
      type: "string",
      ...bounds({ minLength: opts.min || undefined, maxLength: opts.max }),
      ...(opts.pattern ? { pattern: opts.pattern.source } : {}),
    }),
  };
}

/** An integer within [min, max]. */
export function int(opts: { min: number; max: number }): Schema<number> {
  return {
    check(v, path) {
      if (typeof v !== "number" || !Number.isInteger(v)) {
        return [`${path} must be an integer, got ${describe(v)}`];
      }
      if (v < opts.min || v > opts.max) return [`${path} must be ${range(opts.min, opts.max)}`];
      return [];
    },
    toJsonSchema: () => ({ type: "integer", ...bounds({ minimum: opts.min, maximum: opts.max }) }),
  };
}

/** A finite number within [min, max] (or (min, max] with `minExclusive`). */
export function num(
  opts: { min: number; max: number; minExclusive?: boolean },
): Schema<number> {
  return {
    check(v, path) {
      if (typeof v !== "number") return [`${path} must be a number, got ${describe(v)}`];
      if (!Number.isFinite(v)) return [`${path} must be a finite number`];
      const low = opts.minExclusive ? v <= opts.min : v < opts.min;
      if (low || v > opts.max) {
        const above = opts.minExclusive ? `above ${opts.min}` : `at least ${opts.min}`;
        return [
          `${path} must be ${above}${Number.isFinite(opts.max) ? ` and at most ${opts.max}` : ""}`,
        ];
      }
      return [];
    },
    toJsonSchema: () => ({
      type: "number",
      ...bounds(opts.minExclusive ? { exclusiveMinimum: opts.min } : { minimum: opts.min }),
      ...bounds({ maximum: opts.max }),
    }),
  };
}

/** A boolean. */
export const bool: Schema<boolean> = {
  check: (v, path) =>
    typeof v === "boolean" ? [] : [`${path} must be a boolean, got ${describe(v)}`],
  toJsonSchema: () => ({ type: "boolean" }),
};

/** One of a fixed set of strings; typed as their literal union (`as const` arrays too). */
export function oneOf<const V extends readonly string[]>(values: V): Schema<V[number]> {
  return {
    check: (v, path) =>
      typeof v === "string" && values.includes(v)
        ? []
        : [`${path} must be one of ${values.join(", ")}`],
    toJsonSchema: () => ({ type: "string", enum: [...values] }),
  };
}

/** `inner` or null. */
export function nullable<T>(inner: Schema<T>): Schema<T | null> {
  return {
    check: (v, path) => v === null ? [] : inner.check(v, path),
    toJsonSchema: () => ({ anyOf: [inner.toJsonSchema(), { type: "null" }] }),
  };
}

/** Any JSON value whose serialised size is at most `maxBytes`. */
export function json(maxBytes: number): Schema<unknown> {
  return {
    check(v, path) {
      if (v === undefined) return [`${path} is required`];
      const size = new TextEncoder().encode(JSON.stringify(v)).length;
      return size > maxBytes ? [`${path} is too large (${size} > ${maxBytes} bytes)`] : [];
    },
    toJsonSchema: () => ({}),
  };
}

/** A value one of `options` accepts (JSON Schema `anyOf`), typed as the union of theirs. */
export function union<const S extends readonly Schema[]>(...options: S): Schema<Infer<S[number]>> {
  return {
    check(v, path) {
      const each = options.map((o) => o.check(v, path));
      if (each.some((p) => p.length === 0)) return [];
      // The closest option's problems say the most: one whose kind the value has (its
      // problems are all inside it, e.g. an object with one wrong field), the fewest.
      const inside = each.filter((p) => p.every((x) => /^[.[]/.test(x.slice(path.length))));
      return (inside.length ? inside : each).reduce((a, b) => b.length < a.length ? b : a);
    },
    toJsonSchema: () => ({ anyOf: options.map((o) => o.toJsonSchema()) }),
  };
}

/** An object of any keys (at most `maxKeys`) whose values all fit `value`. */
export function record<T>(value: Schema<T>, maxKeys: number): Schema<Record<string, T>> {
  return {
    check(v, path) {
      if (typeof v !== "object" || v === null || Array.isArray(v)) {
        return [`${path} must be an object, got ${describe(v)}`];
      }
      const entries = Object.entries(v);
      if (entries.length > maxKeys) return [`${path} must have at most ${maxKeys} keys`];
      return entries.flatMap(([k, x]) => value.check(x, `${path}.${k}`));
    },
    toJsonSchema: () => ({
      type: "object",
      additionalProperties: value.toJsonSchema(),
      ...bounds({ maxProperties: maxKeys }),
    }),
  };
}

/** An array of `item`, at most `max` long (and at least `opts.min`). */
export function arr<T>(item: Schema<T>, max: number, opts: { min?: number } = {}): Schema<T[]> {
  const min = opts.min ?? 0;
  return {
    check(v, path) {
      if (!Array.isArray(v)) return [`${path} must be an array, got ${describe(v)}`];
      if (v.length > max) return [`${path} must have at most ${max} items`];
      if (v.length < min) return [`${path} must have at least ${min} items`];
      return v.flatMap((x, i) => item.check(x, `${path}[${i}]`));
    },
    toJsonSchema: () => ({
      type: "array",
      items: item.toJsonSchema(),
      ...bounds({ minItems: min || undefined, maxItems: max }),
    }),
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
    toJsonSchema() {
      const required = spec.filter((f) => !f.optional).map((f) => f.key);
      return {
        type: "object",
        properties: Object.fromEntries(spec.map((f) => [f.key, f.schema.toJsonSchema()])),
        ...(required.length ? { required } : {}),
        additionalProperties: false,
      };
    },
  };
}

/** `schema` with a description for the model (the JSON Schema's `description`). */
export function doc<T>(schema: Schema<T>, description: string): Schema<T> {
  return {
    check: (v, path) => schema.check(v, path),
    toJsonSchema: () => ({ ...schema.toJsonSchema(), description }),
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
