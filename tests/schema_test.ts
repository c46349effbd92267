/**
 * protocol/schema.ts: the types inferred from schemas (checked by the compiler: the
 * assignments must type-check, every `@ts-expect-error` line must fail) and the run-time
 * checks (unknown keys, optional keys, nesting, nullable).
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import {
  arr,
  bool,
  check,
  type Infer,
  int,
  json,
  nullable,
  obj,
  oneOf,
  parse,
  record,
  str,
  union,
} from "../protocol/schema.ts";
import type { Effort, OpArgs } from "../protocol/index.ts";
import type { Handler } from "../server/ops/types.ts";

/** True only when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;
/** Compiles only when its argument is `true`. */
const same = <T extends true>(_proof?: T): void => {};

const EFFORTS = ["low", "high"] as const;
const loose: readonly string[] = ["a", "b"];

const s = obj({
  id: str({ min: 1, max: 8 }),
  "count?": int({ min: 0, max: 9 }),
  on: bool,
  mode: oneOf(["plan", "edit"]),
  "effort?": nullable(oneOf(EFFORTS)),
  tags: arr(str({ max: 4 }), 3),
  "nested?": obj({
    deep: nullable(str({ max: 4 })),
    "more?": arr(obj({ n: int({ min: 0, max: 1 }) }), 2),
  }),
  value: json(100),
});
type S = Infer<typeof s>;

const effortOf = oneOf(EFFORTS);
const looseOf = oneOf(loose);
const maybeInt = nullable(int({ min: 0, max: 5 }));
const flags = arr(bool, 4);
const empty = obj({});

Deno.test("schema types: each builder infers its type", () => {
  same<Equal<Infer<ReturnType<typeof str>>, string>>();
  same<Equal<Infer<ReturnType<typeof int>>, number>>();
  same<Equal<Infer<typeof bool>, boolean>>();
  same<Equal<Infer<ReturnType<typeof json>>, unknown>>();
  // An inline array, an `as const` array: their literals; a plain string array: string.
  same<Equal<S["mode"], "plan" | "edit">>();
  same<Equal<Infer<typeof effortOf>, "low" | "high">>();
  same<Equal<Infer<typeof looseOf>, string>>();
  same<Equal<Infer<typeof maybeInt>, number | null>>();
  same<Equal<Infer<typeof flags>, boolean[]>>();
  same<
    Equal<S, {
      id: string;
      count?: number;
      on: boolean;
      mode: "plan" | "edit";
      effort?: "low" | "high" | null;
      tags: string[];
      nested?: { deep: string | null; more?: { n: number }[] };
      value: unknown;
    }>
  >();
  same<Equal<Infer<typeof empty>, Record<never, never>>>();
  // @ts-expect-error not the same type: `count` is optional, not required
  same<Equal<S["count"], number>>();
});

Deno.test("schema types: what a value of the inferred type may and may not be", () => {
  const full: S = {
    id: "x",
    count: 1,
    on: true,
    mode: "edit",
    effort: null,
    tags: [],
    nested: { deep: null, more: [{ n: 0 }] },
    value: { anything: [1] },
  };
  // Optional keys may be left out, nested ones too.
  const minimal: S = { id: "x", on: false, mode: "plan", tags: ["a"], value: 1 };
  const nestedMinimal: S = { ...minimal, nested: { deep: "d" } };
  // @ts-expect-error a required key (`on`) is missing
  const missing: S = { id: "x", mode: "plan", tags: [], value: 1 };
  // @ts-expect-error a wrong type (`id` is a string)
  const wrongType: S = { ...minimal, id: 3 };
  // @ts-expect-error a literal outside the oneOf
  const outside: S = { ...minimal, mode: "full" };
  // @ts-expect-error null where the schema is not nullable
  const notNullable: S = { ...minimal, tags: null };
  // @ts-expect-error an optional key, when present, has its type
  const optionalWrong: S = { ...minimal, count: "1" };
  // @ts-expect-error an unknown key (the run-time check rejects it too)
  const unknownKey: S = { id: "x", on: false, mode: "plan", tags: [], value: 1, extra: 1 };
  // @ts-expect-error a nested required key is missing
  const nestedMissing: S = { ...minimal, nested: { more: [] } };
  // @ts-expect-error the `?` is stripped from the key: `count?` is not a key
  const rawKey: S = { ...minimal, "count?": 1 };
  const all = [full, minimal, nestedMinimal, missing, wrongType, outside, notNullable];
  assertEquals([...all, optionalWrong, unknownKey, nestedMissing, rawKey].length, 11);
});

Deno.test("OpArgs: each op's args are its schema's type", () => {
  same<Equal<OpArgs["tasks.rename"], { id: string; title: string }>>();
  same<Equal<OpArgs["settings.get"], Record<never, never>>>();
  same<Equal<OpArgs["tasks.list"]["ids"], string[] | undefined>>();
  same<Equal<OpArgs["approval.decide"]["decision"], "allow" | "always" | "reject">>();
  same<Equal<OpArgs["task.setOptions"]["effort"], Effort | null | undefined>>();
  same<Equal<OpArgs["draft.get"]["task"], string | null>>();
  // A handler sees only the fields its op's schema has.
  const pin: Handler<"tasks.pin"> = (_ctx, a) => {
    const pinned: boolean = a.pinned;
    // @ts-expect-error `tasks.pin` has no `title`
    const title: string = a.title;
    throw new Error(`not called ${pinned} ${title}`);
  };
  assert(typeof pin === "function");
});

Deno.test("schema checks: unknown keys are rejected, at every level", () => {
  const ok = { id: "x", on: true, mode: "plan", tags: [], value: null };
  assertEquals(check(s, ok), []);
  assertEquals(check(s, { ...ok, extra: 1 }), ["args.extra is not a known field"]);
  assertEquals(check(s, { ...ok, nested: { deep: null, x: 1 } }), [
    "args.nested.x is not a known field",
  ]);
  // The optional key is `count`, never the spelled `count?`.
  assertEquals(check(s, { ...ok, "count?": 1 }), ["args.count? is not a known field"]);
});

Deno.test("schema checks: optional keys absent, present, and wrong when present", () => {
  const ok = { id: "x", on: true, mode: "plan", tags: [], value: 0 };
  assertEquals(check(s, ok), []);
  assertEquals(check(s, { ...ok, count: 9, effort: "low" }), []);
  assertEquals(check(s, { ...ok, count: 10 }), ["args.count must be between 0 and 9"]);
  assertEquals(check(s, { ...ok, effort: "max" }), ["args.effort must be one of low, high"]);
  const { on: _on, ...noOn } = ok;
  assertEquals(check(s, noOn), ["args.on is required"]);
  // `json` requires a value (null is one).
  const { value: _v, ...noValue } = ok;
  assertEquals(check(s, noValue), ["args.value is required"]);
});

Deno.test("schema checks: nested objects and arrays report full paths", () => {
  const ok = { id: "x", on: true, mode: "edit", tags: ["a", "b"], value: 0 };
  assertEquals(check(s, { ...ok, nested: { deep: "d", more: [{ n: 1 }] } }), []);
  assertEquals(check(s, { ...ok, nested: { deep: "d", more: [{ n: 1 }, { n: 2 }] } }), [
    "args.nested.more[1].n must be between 0 and 1",
  ]);
  assertEquals(check(s, { ...ok, nested: { deep: "d", more: [{}, {}, {}] } }), [
    "args.nested.more must have at most 2 items",
  ]);
  assertEquals(check(s, { ...ok, tags: ["a", 5] }), ["args.tags[1] must be a string, got number"]);
  assertEquals(check(s, { ...ok, nested: [] }), ["args.nested must be an object, got array"]);
});

Deno.test("schema checks: nullable takes null, and the inner type, nothing else", () => {
  const n = nullable(int({ min: 0, max: 5 }));
  assertEquals(n.check(null, "v"), []);
  assertEquals(n.check(3, "v"), []);
  assertEquals(n.check(6, "v"), ["v must be between 0 and 5"]);
  assertEquals(n.check("3", "v"), ["v must be an integer, got string"]);
  const ok = { id: "x", on: true, mode: "edit", tags: [], value: 0 };
  // A nullable required key may be null but not left out.
  assertEquals(check(s, { ...ok, nested: { deep: null } }), []);
  assertEquals(check(s, { ...ok, nested: {} }), ["args.nested.deep is required"]);
});

Deno.test("parse: the typed value, or the problems", () => {
  const p = parse(obj({ a: str({ max: 3 }), "b?": bool }), { a: "x" });
  assert(p.ok);
  same<Equal<typeof p.value, { a: string; b?: boolean }>>();
  assertEquals(p.value, { a: "x" });
  const bad = parse(obj({ a: str({ max: 3 }) }), { a: "long" });
  assertEquals(bad, { ok: false, problems: ["args.a must have at most 3 characters"] });
});

Deno.test("union: the first option that fits; otherwise the closest option's problems", () => {
  const u = union(str({ max: 3 }), obj({ n: int({ min: 0, max: 9 }), "m?": bool }));
  same<Equal<Infer<typeof u>, string | { n: number; m?: boolean }>>();
  assertEquals(u.check("abc", "v"), []);
  assertEquals(u.check({ n: 1 }, "v"), []);
  assertEquals(u.check({ n: 1, m: 2 }, "v"), ["v.m must be a boolean, got number"]);
  assertEquals(u.check(5, "v"), ["v must be a string, got number"]);
  assertEquals(u.toJsonSchema(), {
    anyOf: [
      { type: "string", maxLength: 3 },
      {
        type: "object",
        properties: { n: { type: "integer", minimum: 0, maximum: 9 }, m: { type: "boolean" } },
        required: ["n"],
        additionalProperties: false,
      },
    ],
  });
});

Deno.test("record: any keys, each value checked, a bound on the number of keys", () => {
  const r = record(union(str({ max: 9 }), int({ min: 0, max: 9 })), 2);
  same<Equal<Infer<typeof r>, Record<string, string | number>>>();
  assertEquals(r.check({}, "v"), []);
  assertEquals(r.check({ a: "x", b: 3 }, "v"), []);
  assertEquals(r.check({ a: true }, "v"), ["v.a must be a string, got boolean"]);
  assertEquals(r.check({ a: 1, b: 2, c: 3 }, "v"), ["v must have at most 2 keys"]);
  assertEquals(r.check([], "v"), ["v must be an object, got array"]);
  assertEquals(record(bool, Infinity).toJsonSchema(), {
    type: "object",
    additionalProperties: { type: "boolean" },
  });
});
