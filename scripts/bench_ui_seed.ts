/**
 * Seeds a long task straight into a home's database (before a server starts on it):
 * a realistic mix per turn — a user question, an assistant entry with thinking, text
 * and a read_file call, its result, a write_file call, its result with a line diff,
 * and a Markdown answer (heading, list, table, code block). Used by
 * `deno task bench:ui` and the history browser test.
 */
import { Store } from "../store/store.ts";
import type { Entry, Part } from "../protocol/index.ts";

/** Entries per seeded turn (user, 2 × assistant call + result, answer). */
export const ENTRIES_PER_TURN = 6;

function answer(i: number): string {
  return [
    `## Result ${i}`,
    "",
    `Turn **${i}** looked at \`src/mod_${i % 37}.ts\` and changed *one* function:`,
    "",
    "- read the module",
    "- rewrote `compute()` to avoid the extra copy",
    `- checked ${i % 5 + 2} call sites`,
    "",
    "| File | Lines |",
    "|:--|--:|",
    `| src/mod_${i % 37}.ts | ${40 + (i % 60)} |`,
    "",
    "```ts",
    `export function compute${i}(xs: number[]): number {`,
    "  let sum = 0;",
    "  for (const x of xs) sum += x;",
    "  return sum;",
    "}",
    "```",
  ].join("\n");
}

/** The entries of turn `i` (positions are assigned by the store). */
export function turnEntries(
  i: number,
  at: number,
  prefix = "m",
): Omit<Entry, "pos" | "taskId">[] {
  const file = `src/mod_${i % 37}.ts`;
  const mk = (k: number, role: Entry["role"], parts: Part[], meta = {}) => ({
    id: `${prefix}${String(i).padStart(6, "0")}${k}`,
    role,
    status: "done" as const,
    createdAt: at + k * 1000,
    updatedAt: at + k * 1000 + 500,
    parts,
    meta,
  });
  const diff = {
    added: 3,
    removed: 2,
    truncated: false,
    hunks: [{
      oldStart: 1,
      newStart: 1,
      lines: [
        { t: " ", text: `export function compute${i}(xs: number[]): number {` },
        { t: "-", text: "  const copy = [...xs];" },
        { t: "-", text: "  return copy.reduce((a, b) => a + b, 0);" },
        { t: "+", text: "  let sum = 0;" },
        { t: "+", text: "  for (const x of xs) sum += x;" },
        { t: "+", text: "  return sum;" },
        { t: " ", text: "}" },
      ],
    }],
  };
  return [
    mk(0, "user", [{ type: "text", text: `Question ${i}: please tidy up ${file}.` }]),
    mk(1, "assistant", [
      {
        type: "thinking",
        text: `I should read ${file} first.`,
        data: { startedAt: at + 1000, endedAt: at + 1600 },
      },
      { type: "text", text: `Reading ${file}.` },
      { type: "tool_call", data: { id: `r${i}`, name: "read_file", args: { path: file } } },
    ]),
    mk(2, "tool", [{
      type: "tool_result",
      text: `export function compute${i}(xs: number[]): number {\n  const copy = [...xs];\n}\n`,
      data: { toolCallId: `r${i}`, name: "read_file", isError: false },
    }]),
    mk(3, "assistant", [{
      type: "tool_call",
      data: { id: `w${i}`, name: "edit_file", args: { path: file } },
    }]),
    mk(4, "tool", [{
      type: "tool_result",
      text: `Edited ${file}.`,
      data: {
        toolCallId: `w${i}`,
        name: "edit_file",
        isError: false,
        meta: { path: file, diff },
      },
    }]),
    mk(5, "assistant", [{ type: "text", text: answer(i) }], { endedAt: at + 5600 }),
  ];
}

/**
 * Creates task `id` titled `title` with `count` entries (whole turns; the last turn
 * may be cut short) in the database of `home`. Returns the number of entries written.
 */
export function seedLongTask(
  home: string,
  opts: { id: string; title: string; count: number; compactEvery?: number },
): number {
  const store = new Store(`${home}/reinagent.db`);
  try {
    const r = store.repos!;
    r.tasks.create({ id: opts.id, title: opts.title, projectPath: null });
    let n = 0;
    const start = Date.now() - opts.count * 2000;
    r.entries.tx(() => {
      for (let i = 0; n < opts.count; i++) {
        const prefix = `${opts.id}-`; // entry ids are unique across tasks
        for (const e of turnEntries(i, start + i * ENTRIES_PER_TURN * 1000, prefix)) {
          if (n >= opts.count) break;
          let pos = n + 1;
          r.entries.upsert({ ...e, taskId: opts.id, pos });
          n++;
          if (
            opts.compactEvery && e.id.endsWith("5") && i % opts.compactEvery === 0 && n < opts.count
          ) {
            pos = n + 1;
            r.entries.upsert({
              id: `${prefix}c${String(i).padStart(6, "0")}`,
              taskId: opts.id,
              pos,
              role: "compact",
              status: "done",
              createdAt: e.updatedAt,
              updatedAt: e.updatedAt,
              parts: [{ type: "text", text: `Summary of turns up to ${i}.` }],
              meta: {},
            });
            n++;
          }
        }
      }
    });
    return n;
  } finally {
    store.close();
  }
}
