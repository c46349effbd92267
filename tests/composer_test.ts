/**
 * Composer server side in-process (real store, real adapters, the mock LLM): the
 * steering queue, attachments reaching the model in each wire format, prompt history
 * and drafts.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { mockProvider } from "./helpers/seed.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import type { Scenario } from "../scripts/mock_llm/scenario.ts";
import { createServices } from "../server/services.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { OpContext, ServerDeps } from "../server/ops/context.ts";
import type { HubClient } from "../server/sessions/hub.ts";
import type { Attachment, Entry, EvtMsg, ProtocolError, TaskEvent } from "../protocol/index.ts";
import type { ApiFormat } from "../agent/providers/types.ts";
import { saveUpload } from "../server/composer/uploads_store.ts";
import { toConversation } from "../server/agent/history.ts";
import { PNG_1PX } from "./helpers/png.ts";
import { decodeImage, patternPng } from "./helpers/images.ts";

const PNG_B64 = btoa(String.fromCharCode(...PNG_1PX));

class AllTopics extends Set<string> {
  override has(): boolean {
    return true;
  }
}

interface Env {
  deps: ServerDeps;
  mock: ReturnType<typeof startMockLlm>;
  events: EvtMsg[];
  // deno-lint-ignore no-explicit-any
  op<T = any>(op: string, args?: unknown): Promise<T>;
  fail(op: string, args?: unknown): Promise<ProtocolError>;
  model(s: Scenario, format?: ApiFormat, vision?: boolean): { providerId: string; modelId: string };
  upload(name: string, mime: string, bytes: Uint8Array): Promise<Attachment>;
  close(): Promise<void>;
}

let n = 0;
async function env(): Promise<Env> {
  const home = await Deno.makeTempDir({ prefix: "ra-composer-" });
  await Deno.mkdir(`${home}/DefaultProject`);
  const deps = createServices({ home, flushMs: 5 });
  const mock = startMockLlm({ quiet: true });
  const events: EvtMsg[] = [];
  const client: HubClient = { id: "c", topics: new AllTopics(), deliver: (e) => events.push(...e) };
  deps.hub.add(client);
  const ctx: OpContext = { ...deps, client };
  return {
    deps,
    mock,
    events,
    async op(op, args = {}) {
      const out = await runOp(ctx, op, args);
      if (!out.ok) throw new Error(`${op} failed: ${out.error.code}: ${out.error.message}`);
      // deno-lint-ignore no-explicit-any
      return out.result as any;
    },
    async fail(op, args = {}) {
      const out = await runOp(ctx, op, args);
      if (out.ok) throw new Error(`${op} was expected to fail`);
      return out.error;
    },
    model(s, format = "openai-chat-completions", vision = false) {
      const modelId = `c${++n}${vision ? "-vision" : ""}`;
      mock.register(modelId, s);
      const providerId = `p${n}`;
      deps.store.repos!.providers.put({
        ...mockProvider(mock.base, [modelId], format),
        id: providerId,
        name: `Mock ${n}`,
      });
      return { providerId, modelId };
    },
    upload: (name, mime, bytes) =>
      saveUpload(home, { name, mime, body: ReadableStream.from([bytes]), length: bytes.length }),
    async close() {
      await deps.runs!.stopAll();
      deps.hub.close();
      deps.store.close();
      await mock.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}

const until = async (cond: () => boolean, what: string, ms = 8000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

const userTexts = (e: Env, taskId: string) =>
  e.deps.store.repos!.entries.latest(taskId, 1000).filter((x: Entry) => x.role === "user")
    .map((x: Entry) => x.parts[0].text);

const queueEvents = (e: Env, taskId: string) =>
  e.events.filter((x) => x.topic === `task:${taskId}` && (x.data as TaskEvent).kind === "queue")
    .map((x) => (x.data as Extract<TaskEvent, { kind: "queue" }>).queue);

Deno.test("steering queue: queued while running, removable, sent after the natural finish", async () => {
  const e = await env();
  try {
    const model = e.model({
      turns: [{ text: "tick ".repeat(60), chunk: 5, delayMs: 15 }, { text: "second answer" }],
      repeatLast: true,
    });
    const { task } = await e.op("tasks.create", {
      title: "q",
      message: "first",
      options: { model },
    });
    await until(() => e.deps.runs!.isRunning(task.id), "run start");
    const a = await e.op("task.send", { id: task.id, text: "steer A" });
    const b = await e.op("task.send", { id: task.id, text: "steer B" });
    assertEquals(b.queued.text, "steer B");
    assertEquals(a.entry, null);
    assertEquals(a.queued.text, "steer A");
    assertEquals(userTexts(e, task.id), ["first"], "nothing appended while running");
    // Visible to every client: the subscribe snapshot and the queue events.
    const snap = await e.op("task.subscribe", { id: task.id });
    assertEquals(snap.queue.map((q: { text: string }) => q.text), ["steer A", "steer B"]);
    e.deps.hub.flush();
    assertEquals(queueEvents(e, task.id).at(-1)!.length, 2);
    // Remove A; an unknown item is a clear error that changes nothing.
    await e.op("queue.remove", { id: task.id, itemId: a.queued.id });
    assertEquals((await e.fail("queue.remove", { id: task.id, itemId: "nope" })).code, "not_found");
    assertEquals((await e.op("queue.list", { id: task.id })).queue.length, 1);
    // The run completes naturally: B is sent, and runs.
    await until(() => userTexts(e, task.id).length === 2, "queued message sent");
    assertEquals(userTexts(e, task.id), ["first", "steer B"]);
    await until(() => !e.deps.runs!.isRunning(task.id), "second run end");
    assertEquals((await e.op("queue.list", { id: task.id })).queue, []);
    e.deps.hub.flush();
    assertEquals(queueEvents(e, task.id).at(-1), []);
    const asked = e.mock.requests(model.modelId).at(-1)!.body.messages as { content: unknown }[];
    assertMatch(JSON.stringify(asked), /steer B/);
    assert(
      !JSON.stringify(asked).includes("steer A"),
      "the removed message never reached the model",
    );
  } finally {
    await e.close();
  }
});

Deno.test("steering queue: kept after Stop and after an error; queue.send sends it", async () => {
  const e = await env();
  try {
    // The first answer is held part-way (surely still running at the Stop); the gate
    // opens before the queued message's run, which then answers at once.
    const model = e.model({
      turns: [{ text: "word ".repeat(300), chunk: 5, hold: { gate: "first" } }, { text: "ok" }],
      repeatLast: true,
    });
    const { task } = await e.op("tasks.create", { title: "s", message: "go", options: { model } });
    await until(() => e.deps.runs!.isRunning(task.id), "run start");
    const q = await e.op("task.send", { id: task.id, text: "later" });
    await e.op("task.stop", { id: task.id });
    e.mock.release("first");
    await new Promise((r) => setTimeout(r, 100));
    assertEquals(userTexts(e, task.id), ["go"], "not sent after a stop");
    assertEquals(
      (await e.op("queue.list", { id: task.id })).queue.map((x: { id: string }) => x.id),
      [
        q.queued.id,
      ],
    );
    const sent = await e.op("queue.send", { id: task.id, itemId: q.queued.id });
    assertEquals(sent.queue, []);
    assertEquals(userTexts(e, task.id), ["go", "later"]);
    await until(() => !e.deps.runs!.isRunning(task.id), "run end");

    // An error ends the run: the queued message waits.
    const bad = e.model({ turns: [{ text: "x", chunk: 1, delayMs: 30, fail: { status: 400 } }] });
    const t2 = (await e.op("tasks.create", { title: "e", message: "go", options: { model: bad } }))
      .task;
    await e.op("task.send", { id: t2.id, text: "after error" });
    await until(() => !e.deps.runs!.isRunning(t2.id), "failed run end");
    await new Promise((r) => setTimeout(r, 50));
    assertEquals(userTexts(e, t2.id), ["go"]);
    assertEquals((await e.op("queue.list", { id: t2.id })).queue.length, 1);
    // Deleting the task drops its queue.
    await e.op("tasks.delete", { id: t2.id });
    assertEquals(e.deps.store.repos!.kv.get(`queue.${t2.id}`), undefined);
  } finally {
    await e.close();
  }
});

for (
  const [format, find] of [
    [
      "openai-chat-completions",
      (b: string) => b.includes(`"url":"data:image/png;base64,${PNG_B64}"`),
    ],
    [
      "anthropic-messages",
      (b: string) => b.includes(`"media_type":"image/png","data":"${PNG_B64}"`),
    ],
    [
      "openai-responses",
      (b: string) => b.includes(`"image_url":"data:image/png;base64,${PNG_B64}"`),
    ],
    [
      "google-generative-ai",
      (b: string) => b.includes(`"mimeType":"image/png","data":"${PNG_B64}"`),
    ],
  ] as const
) {
  Deno.test(`attachments: the image reaches a vision model inline (${format})`, async () => {
    const e = await env();
    try {
      const model = e.model({ turns: [{ text: "I see it" }] }, format, true);
      const img = await e.upload("shot.png", "image/png", PNG_1PX);
      const notes = await e.upload(
        "notes.txt",
        "text/plain",
        new TextEncoder().encode("hello <b>"),
      );
      const { task, entry } = await e.op("tasks.create", {
        title: "img",
        message: "what is this?",
        attachments: [img.id, notes.id],
        options: { model },
      });
      assertEquals(entry.parts.map((p: { type: string }) => p.type), ["text", "image", "file"]);
      const copy = entry.parts[1].data.path as string;
      assertEquals(copy, `${e.deps.home}/DefaultProject/.reinagent/attachments/${img.id}/shot.png`);
      assertEquals(await Deno.readFile(copy), PNG_1PX, "copied into the workspace");
      await until(() => !e.deps.runs!.isRunning(task.id), "run end");
      const body = JSON.stringify(e.mock.requests(model.modelId)[0].body);
      assert(find(body), `image inline in the ${format} request`);
      assert(body.includes("notes.txt") && body.includes("hello <b>"), "text file inlined");
    } finally {
      await e.close();
    }
  });
}

Deno.test("attachments: a pasted image over the models' limit reaches a vision model resized", async () => {
  const e = await env();
  try {
    const model = e.model({ turns: [{ text: "I see stripes" }] }, "anthropic-messages", true);
    const img = await e.upload("pasted.png", "image/png", patternPng(2600, 1200));
    const { task } = await e.op("tasks.create", {
      title: "big paste",
      message: "what is this?",
      attachments: [img.id],
      options: { model },
    });
    await until(() => !e.deps.runs!.isRunning(task.id), "run end", 30_000);
    type Block = { type: string; text?: string; source?: { media_type: string; data: string } };
    const body = e.mock.requests(model.modelId)[0].body as {
      messages: { content: Block[] }[];
    };
    const blocks = body.messages.flatMap((m) => Array.isArray(m.content) ? m.content : []);
    const image = blocks.find((b) => b.type === "image")!;
    assertEquals(image.source!.media_type, "image/png");
    const back = decodeImage(Uint8Array.fromBase64(image.source!.data));
    assertEquals([back.width, back.height], [2000, 923]);
    const note = blocks.find((b) => b.text?.startsWith("[Image: "))!.text!;
    assertMatch(note, /pasted\.png — Sent resized from 2600×1200 to 2000×923 px \(PNG/);
  } finally {
    await e.close();
  }
});

Deno.test("attachments: a model without vision gets a path reference, never the bytes", async () => {
  const e = await env();
  try {
    const model = e.model({ turns: [{ text: "ok" }] });
    const img = await e.upload("shot.png", "image/png", PNG_1PX);
    const { task } = await e.op("tasks.create", { title: "t", message: "hi", options: { model } });
    await until(() => !e.deps.runs!.isRunning(task.id), "first run");
    await e.op("task.send", { id: task.id, text: "look", attachments: [img.id] });
    await until(() => e.mock.requests(model.modelId).length === 2, "second request");
    const body = JSON.stringify(e.mock.requests(model.modelId)[1].body);
    assert(!body.includes(PNG_B64), "no image bytes");
    assertMatch(body, /Attached image: .*\.reinagent\/attachments\/u[0-9a-f]{32}\/shot\.png/);
    assertMatch(body, /cannot see images/);
    // Unknown ids, bad ids, too many: clear errors, nothing appended.
    const before = userTexts(e, task.id).length;
    const unknown = "u" + "0".repeat(32);
    assertEquals(
      (await e.fail("task.send", { id: task.id, text: "x", attachments: [unknown] })).code,
      "invalid_args",
    );
    assertEquals(
      (await e.fail("task.send", { id: task.id, text: "x", attachments: ["../../etc"] })).code,
      "invalid_args",
    );
    assertEquals(
      (await e.fail("task.send", { id: task.id, text: "x", attachments: Array(10).fill(img.id) }))
        .code,
      "invalid_args",
    );
    assertEquals(userTexts(e, task.id).length, before);
  } finally {
    await e.close();
  }
});

Deno.test("attachments only: a message may be just files; nothing at all is refused", async () => {
  const e = await env();
  try {
    const model = e.model(
      { turns: [{ text: "I see it" }], repeatLast: true },
      "anthropic-messages",
      true,
    );
    const img = await e.upload("only.png", "image/png", PNG_1PX);
    // Empty text and no attachments: refused, nothing created or appended.
    const tasksBefore = (await e.op("tasks.list", {})).tasks.length;
    assertEquals((await e.fail("tasks.create", { message: "  " })).code, "invalid_args");
    assertEquals((await e.op("tasks.list", {})).tasks.length, tasksBefore);
    const { task, entry } = await e.op("tasks.create", {
      message: "",
      attachments: [img.id],
      options: { model },
    });
    assertEquals(task.title, "only.png", "titled after the file");
    assertEquals(entry.parts.map((p: { type: string }) => p.type), ["text", "image"]);
    await until(() => !e.deps.runs!.isRunning(task.id), "run end");
    const body = JSON.stringify(e.mock.requests(model.modelId)[0].body);
    assert(body.includes(PNG_B64), "the image reaches the model");
    assert(!body.includes('"text":""'), "no empty text block (Anthropic refuses those)");
    const before = userTexts(e, task.id).length;
    assertEquals((await e.fail("task.send", { id: task.id, text: " " })).code, "invalid_args");
    assertEquals(userTexts(e, task.id).length, before);
    await e.op("task.send", { id: task.id, text: "", attachments: [img.id] });
    assertEquals(userTexts(e, task.id).length, before + 1);
  } finally {
    await e.close();
  }
});

Deno.test("history: image and file parts become blocks (without data: references)", () => {
  const entry: Entry = {
    id: "m1",
    taskId: "t",
    pos: 1,
    role: "user",
    status: "done",
    createdAt: 0,
    updatedAt: 0,
    meta: {},
    parts: [
      { type: "text", text: "see" },
      {
        type: "image",
        data: {
          id: "u" + "a".repeat(32),
          name: "a.png",
          mime: "image/png",
          size: 10,
          path: "/w/a.png",
        },
      },
      {
        type: "file",
        data: {
          id: "u" + "b".repeat(32),
          name: "b.bin",
          mime: "application/zip",
          size: 4096,
          path: "/w/b.bin",
        },
      },
    ],
  };
  const plain = toConversation([entry]);
  assertEquals(plain[0].role, "user");
  const text = JSON.stringify(plain);
  assertMatch(text, /Attached image: \/w\/a\.png/);
  assertMatch(text, /Attached file: \/w\/b\.bin \(application\/zip, 4 KB\)/);
  const withImg = toConversation([entry], {
    images: new Map([["u" + "a".repeat(32), { mimeType: "image/png", data: "QUJD" }]]),
    texts: new Map(),
  });
  const content = (withImg[0] as { content: { type: string }[] }).content;
  assertEquals(content.map((b) => b.type), ["text", "text", "image", "text"]);
});

Deno.test("prompt history per workspace (30, no repeats in a row) and drafts", async () => {
  const e = await env();
  try {
    const model = e.model({ turns: [{ text: "ok" }], repeatLast: true });
    const { task } = await e.op("tasks.create", { title: "p", message: "one", options: { model } });
    await until(() => !e.deps.runs!.isRunning(task.id), "run");
    for (const text of ["two", "two", "  three  "]) {
      await e.op("task.send", { id: task.id, text });
      await until(() => !e.deps.runs!.isRunning(task.id), "run");
    }
    assertEquals((await e.op("prompts.list", { workspace: null })).prompts, [
      "one",
      "two",
      "three",
    ]);
    assertEquals((await e.op("prompts.list", { workspace: "/elsewhere" })).prompts, []);
    const c = (await import("../server/composer/composer_service.ts")).composerOf(e.deps)!;
    for (let i = 0; i < 40; i++) c.rememberPrompt(null, `p${i}`);
    const list = (await e.op("prompts.list", { workspace: null })).prompts;
    assertEquals(list.length, 30);
    assertEquals(list.at(-1), "p39");

    // Drafts: per task and for the new-task view; empty deletes.
    const img = await e.upload("a.png", "image/png", PNG_1PX);
    await e.op("draft.set", { task: task.id, text: "half done", attachments: [img.id] });
    const d = (await e.op("draft.get", { task: task.id })).draft;
    assertEquals(d.text, "half done");
    assertEquals(d.attachments[0].name, "a.png");
    assertEquals((await e.op("draft.get", { task: null })).draft, null);
    await e.op("draft.set", { task: null, text: "new one", attachments: [] });
    assertEquals((await e.op("draft.get", { task: null })).draft.text, "new one");
    await e.op("draft.set", { task: task.id, text: "", attachments: [] });
    assertEquals((await e.op("draft.get", { task: task.id })).draft, null);
    assertEquals((await e.fail("draft.get", { task: "missing" })).code, "not_found");
    assertEquals(
      (await e.fail("draft.set", { task: null, text: "x", attachments: ["u" + "1".repeat(32)] }))
        .code,
      "invalid_args",
    );
    assertEquals((await e.op("draft.get", { task: null })).draft.text, "new one", "unchanged");
    // Sending clears the draft on the server (even if the client's own clear is lost).
    await e.op("draft.set", { task: task.id, text: "about to send", attachments: [] });
    await e.op("task.send", { id: task.id, text: "about to send" });
    assertEquals((await e.op("draft.get", { task: task.id })).draft, null, "sent → no draft");
    await until(() => !e.deps.runs!.isRunning(task.id), "run");
    const t2 =
      (await e.op("tasks.create", { message: "from the new-task view", options: { model } }))
        .task;
    assertEquals((await e.op("draft.get", { task: null })).draft, null, "created → no draft");
    await until(() => !e.deps.runs!.isRunning(t2.id), "run");
    // uploads.info: metadata of known uploads; an unknown id is an error.
    assertEquals((await e.op("uploads.info", { ids: [img.id] })).attachments[0].mime, "image/png");
    assertEquals(
      (await e.fail("uploads.info", { ids: ["u" + "2".repeat(32)] })).code,
      "invalid_args",
    );
  } finally {
    await e.close();
  }
});

Deno.test("ui: paste routing (15 000-character threshold), history keys, strings in both languages", async () => {
  const { classifyPaste, pastedTextName } = await import("../ui/state/attachments.js");
  const { historyKey } = await import("../ui/components/composer/keys.js");
  const { DICTS, loadLang } = await import("../ui/i18n/index.js");
  await loadLang("zh-CN");
  const text = (s: string) =>
    ({ files: [], items: [], getData: () => s }) as unknown as DataTransfer;
  assertEquals(classifyPaste(text("x".repeat(14_999))), null, "below the threshold: typed text");
  const got = classifyPaste(text("x".repeat(15_000)))!;
  assertEquals(got.files.length, 1);
  assertMatch(got.files[0].name, /^pasted-text-\d{8}-\d{6}\.txt$/);
  assertEquals(got.files[0].type, "text/plain");
  assertEquals(await got.files[0].text(), "x".repeat(15_000));
  assertEquals(pastedTextName(new Date(2026, 0, 2, 3, 4, 5)), "pasted-text-20260102-030405.txt");
  const img = new File([new Uint8Array([1])], "image.png", { type: "image/png" });
  const withImage = { files: [img], items: [], getData: () => "" } as unknown as DataTransfer;
  assertMatch(classifyPaste(withImage)!.files[0].name, /^pasted-image-\d{8}-\d{6}\.png$/);

  const key = (k: string, value: string, caret: number, extra: Record<string, unknown> = {}) =>
    historyKey(
      {
        key: k,
        shiftKey: false,
        altKey: false,
        ctrlKey: false,
        metaKey: false,
        isComposing: false,
        keyCode: 0,
        ...extra,
      } as unknown as KeyboardEvent,
      { selectionStart: caret, selectionEnd: caret, value } as HTMLTextAreaElement,
    );
  assertEquals(key("ArrowUp", "one\ntwo", 2), -1, "first line");
  assertEquals(key("ArrowUp", "one\ntwo", 5), 0, "second line: the caret moves");
  assertEquals(key("ArrowDown", "one\ntwo", 5), 1, "last line");
  assertEquals(key("ArrowDown", "one\ntwo", 1), 0);
  assertEquals(key("ArrowUp", "", 0, { isComposing: true }), 0, "IME composing");
  assertEquals(key("ArrowUp", "", 0, { shiftKey: true }), 0);

  const en = DICTS["en-US"], zh = DICTS["zh-CN"];
  for (const k of Object.keys(en).filter((k) => /^(attach|queue|draft)\./.test(k))) {
    assert(zh[k], `zh-CN misses ${k}`);
  }
});

Deno.test("attachments in a git repository never show in git status", async () => {
  const e = await env();
  const ws = `${e.deps.home}/DefaultProject`;
  const git = (...args: string[]) =>
    new Deno.Command("git", { args, cwd: ws, stdout: "piped", stderr: "piped" }).output();
  try {
    await git("init", "-q");
    const model = e.model({ turns: [{ text: "ok" }] });
    const note = await e.upload("pasted.txt", "text/plain", new TextEncoder().encode("pasted"));
    const { task } = await e.op("tasks.create", {
      title: "t",
      message: "read this",
      attachments: [note.id],
      options: { model },
    });
    await until(() => !e.deps.runs!.isRunning(task.id), "the run");
    assert(
      await Deno.stat(`${ws}/.reinagent/attachments/${note.id}/pasted.txt`).then(() => true),
      "the copy is in the workspace for the tools",
    );
    const status = new TextDecoder().decode((await git("status", "--porcelain")).stdout);
    assertEquals(status, "", "nothing new for git");
  } finally {
    await e.close();
  }
});
