/**
 * JSON Schema for tool arguments, from either side: a one-line shape of a schema for
 * error messages ("Expected: {path: string, limit?: integer 1–2000}"), and a small
 * validator for schemas that arrive as JSON (MCP servers), so such tools are checked
 * by the runner like the built-in ones. The validator covers the keywords tool schemas
 * use (type, properties, required, additionalProperties, enum, const, bounds, pattern,
 * items, anyOf/oneOf/allOf); others are ignored — the tool's own server checks again.
 */
import type { JsonSchema, Schema } from "../protocol/schema.ts";

const SHAPE_MAX = 400;

type J = JsonSchema;
const isObj = (v: unknown): v is J => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => typeof v === "number" ? v : undefined;

function boundsText(lo: number | undefined, hi: number | undefined, loEx = false): string {
  if (lo !== undefined && hi !== undefined && !loEx) return ` ${lo}–${hi}`;
  const parts = [];
  if (lo !== undefined) parts.push(`${loEx ? ">" : "≥"} ${lo}`);
  if (hi !== undefined) parts.push(`≤ ${hi}`);
  return parts.length ? ` ${parts.join(", ")}` : "";
}

/** The bounds as words for an error: "between 1 and 9", "above 0 and at most 600". */
function boundsWords(lo?: number, hi?: number, loEx = false, hiEx?: number): string {
  if (lo !== undefined && hi !== undefined && !loEx) return `between ${lo} and ${hi}`;
  const parts = [];
  if (lo !== undefined) parts.push(`${loEx ? "above" : "at least"} ${lo}`);
  if (hi !== undefined) parts.push(`at most ${hi}`);
  if (hiEx !== undefined) parts.push(`below ${hiEx}`);
  return parts.join(" and ");
}

function shape(s: unknown): string {
  if (!isObj(s)) return "any";
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if ("const" in s) return JSON.stringify(s.const);
  const alts = (s.anyOf ?? s.oneOf) as unknown;
  if (Array.isArray(alts)) return alts.map(shape).join(" | ");
  const type = Array.isArray(s.type) ? s.type.join(" | ") : s.type;
  switch (type) {
    case "object": {
      const props = isObj(s.properties) ? s.properties : {};
      const req = new Set(Array.isArray(s.required) ? s.required : []);
      const fields = Object.entries(props).map(([k, v]) =>
        `${k}${req.has(k) ? "" : "?"}: ${shape(v)}`
      );
      return `{${fields.join(", ")}}`;
    }
    case "array": {
      const item = shape(s.items);
      const n = boundsText(num(s.minItems), num(s.maxItems)).trim();
      return `${/[ |]/.test(item) && !item.startsWith("{") ? `(${item})` : item}[]` +
        (n ? ` (${n} items)` : "");
    }
    case "integer":
    case "number": {
      const ex = num(s.exclusiveMinimum);
      return `${type}${boundsText(ex ?? num(s.minimum), num(s.maximum), ex !== undefined)}`;
    }
    case undefined:
      return "any";
    default:
      return String(type);
  }
}

/** A TypeScript-like one-liner of what a schema accepts, shortened to a readable length. */
export function describeShape(schema: JsonSchema): string {
  const s = shape(schema);
  return s.length > SHAPE_MAX ? `${s.slice(0, SHAPE_MAX - 1)}…` : s;
}

const typeOf = (v: unknown): string =>
  v === null
    ? "null"
    : Array.isArray(v)
    ? "array"
    : typeof v === "number" && Number.isInteger(v)
    ? "integer"
    : typeof v;

function typeMatches(t: unknown, v: unknown): boolean {
  const actual = typeOf(v);
  return t === actual || (t === "number" && actual === "integer");
}

/** Whether `v` matches `pattern`; a pattern JavaScript cannot compile does not reject. */
function matches(pattern: string, v: string): boolean {
  try {
    return new RegExp(pattern, "u").test(v);
  } catch {
    return true;
  }
}

/** Problems of `v` against a raw JSON Schema at `path` (empty = valid). */
export function checkJson(s: unknown, v: unknown, path: string): string[] {
  if (s === false) return [`${path} is not allowed`];
  if (!isObj(s)) return [];
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((t) => typeMatches(t, v))) {
      const got = typeOf(v) === "integer" ? "number" : typeOf(v);
      const named = types.map((t) => `${/^[aeiou]/.test(String(t)) ? "an" : "a"} ${t}`);
      return [`${path} must be ${named.join(" or ")}, got ${got}`];
    }
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) {
    return [`${path} must be one of ${s.enum.map((e) => JSON.stringify(e)).join(", ")}`];
  }
  if ("const" in s && JSON.stringify(s.const) !== JSON.stringify(v)) {
    return [`${path} must be ${JSON.stringify(s.const)}`];
  }
  const problems: string[] = [];
  if (Array.isArray(s.allOf)) {
    for (const sub of s.allOf) {
      problems.push(...checkJson(sub, v, path));
    }
  }
  const alts = (s.anyOf ?? s.oneOf) as unknown;
  if (Array.isArray(alts) && !alts.some((sub) => checkJson(sub, v, path).length === 0)) {
    problems.push(`${path} must be ${alts.map(shape).join(" or ")}`);
  }
  if (typeof v === "number") {
    const [lo, hi, ex] = [num(s.minimum), num(s.maximum), num(s.exclusiveMinimum)];
    const exHi = num(s.exclusiveMaximum);
    if (
      (lo !== undefined && v < lo) || (hi !== undefined && v > hi) ||
      (ex !== undefined && v <= ex) || (exHi !== undefined && v >= exHi)
    ) problems.push(`${path} must be ${boundsWords(ex ?? lo, hi, ex !== undefined, exHi)}`);
  }
  if (typeof v === "string") {
    const [lo, hi] = [num(s.minLength), num(s.maxLength)];
    if (lo !== undefined && v.length < lo) {
      problems.push(`${path} must have at least ${lo} characters`);
    }
    if (hi !== undefined && v.length > hi) {
      problems.push(`${path} must have at most ${hi} characters`);
    }
    if (typeof s.pattern === "string" && !matches(s.pattern, v)) {
      problems.push(`${path} has an invalid format`);
    }
  }
  if (Array.isArray(v)) {
    const [lo, hi] = [num(s.minItems), num(s.maxItems)];
    if (lo !== undefined && v.length < lo) problems.push(`${path} must have at least ${lo} items`);
    if (hi !== undefined && v.length > hi) problems.push(`${path} must have at most ${hi} items`);
    if (s.items !== undefined) {
      v.forEach((x, i) => problems.push(...checkJson(s.items, x, `${path}[${i}]`)));
    }
  }
  if (isObj(v)) {
    const props = isObj(s.properties) ? s.properties : {};
    for (const k of Array.isArray(s.required) ? s.required : []) {
      if (v[k] === undefined) problems.push(`${path}.${k} is required`);
    }
    for (const [k, x] of Object.entries(v)) {
      if (k in props) problems.push(...checkJson(props[k], x, `${path}.${k}`));
      else if (s.additionalProperties === false) problems.push(`${path}.${k} is not a known field`);
      else if (isObj(s.additionalProperties)) {
        problems.push(...checkJson(s.additionalProperties, x, `${path}.${k}`));
      }
    }
  }
  return problems;
}

/**
 * A raw JSON Schema (e.g. an MCP tool's `inputSchema`) as a builder `Schema`: checked by
 * {@link checkJson}, and given to the model unchanged.
 */
export function jsonSchemaArgs(schema: JsonSchema): Schema {
  return {
    check: (v, path) => checkJson(schema, v, path),
    toJsonSchema: () => schema,
  };
}
