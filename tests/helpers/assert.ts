/** Assertions on top of node:assert (JSR's @std/assert is unreachable here). */
import nodeAssert from "node:assert";

export function assert(cond: unknown, msg?: string): asserts cond {
  nodeAssert.ok(cond, msg);
}

export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  nodeAssert.deepStrictEqual(actual, expected, msg);
}

export function assertMatch(actual: string, re: RegExp, msg?: string): void {
  nodeAssert.match(actual, re, msg);
}

export function assertThrows(fn: () => unknown, msg?: string): void {
  nodeAssert.throws(fn, msg);
}

export async function assertRejects(fn: () => Promise<unknown>, msg?: string): Promise<void> {
  await nodeAssert.rejects(fn, msg);
}
