/**
 * The topic map (protocol/topics.ts) is the one list of topics and payloads: the hub
 * refuses, at type level, a topic outside it or a payload of another topic, and the
 * server publishes only through it. The `@ts-expect-error` lines below fail `deno check`
 * (and so `deno test`) the day the hub would accept them.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { EventHub, type HubClient } from "../server/sessions/hub.ts";
import {
  APPROVALS_TOPIC,
  isTaskEvent,
  type Project,
  PROJECTS_TOPIC,
  SETTINGS_TOPIC,
  SKILLS_TOPIC,
  type TaskEvent,
  TASKS_TOPIC,
  taskTopic,
  type TopicEvent,
  type TopicPayload,
} from "../protocol/index.ts";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

// ---------- types: checked by `deno check`, never run ----------

type OnTopic = typeof import("../ui/state/connection.js").onTopic;

const _publishTypes = (hub: EventHub, projects: Project[], anyTopic: string) => {
  hub.publish(PROJECTS_TOPIC, { kind: "list", projects });
  hub.publish(taskTopic("t1"), { kind: "truncate", afterPos: 3, total: 4 });
  hub.publish(SETTINGS_TOPIC, { kind: "sandbox", available: true });
  // @ts-expect-error a topic that is not in the map
  hub.publish("project", { kind: "list", projects });
  // @ts-expect-error a topic only known as a string
  hub.publish(anyTopic, { kind: "changed" });
  // @ts-expect-error the payload of another topic
  hub.publish(PROJECTS_TOPIC, { kind: "changed" });
  // @ts-expect-error a field the payload does not have
  hub.publish(SKILLS_TOPIC, { kind: "changed", extra: 1 });
  // @ts-expect-error a field of the wrong type
  hub.publish(SETTINGS_TOPIC, { kind: "sandbox", available: "yes" });
  // @ts-expect-error a task's topic carries task events, not the task list's
  hub.publish(taskTopic("t1"), { kind: "delete", id: "t1" });
  // @ts-expect-error a merge must give back the topic's payload
  hub.publish(taskTopic("t1"), { kind: "deleted" }, "k", () => ({ text: "x" }));
};

const _observerTypes = (e: TopicEvent) => {
  if (e.topic === TASKS_TOPIC) {
    const kind: "upsert" | "delete" = e.data.kind;
    return kind;
  }
  if (e.topic === APPROVALS_TOPIC) return e.data.approvals.length;
  if (isTaskEvent(e)) {
    const d: TaskEvent = e.data;
    return d.kind;
  }
  // @ts-expect-error without narrowing, data is any topic's payload
  const d: TaskEvent = e.data;
  return d;
};

const _uiTypes = (onTopic: OnTopic, shown: () => `task:${string}` | null) => {
  onTopic(PROJECTS_TOPIC, (data, seq) => {
    const projects: Project[] = data.projects;
    return [projects, seq];
  });
  onTopic(shown, (data) => {
    const d: TaskEvent = data;
    return d;
  });
  onTopic(SKILLS_TOPIC, (data) => {
    // @ts-expect-error the skills topic carries no projects
    return data.projects;
  });
  // @ts-expect-error a topic that is not in the map
  onTopic("project", () => {});
};

const _payload: TopicPayload<`task:${string}`> = { kind: "deleted" };

// ---------- runtime ----------

Deno.test("hub topics: a client gets each topic's payload as published, typed by topic", () => {
  const hub = new EventHub(1000);
  const got: TopicEvent[] = [];
  const client: HubClient = {
    id: "c",
    topics: new Set([TASKS_TOPIC, taskTopic("t1")]),
    deliver: (events) => void got.push(...events),
  };
  hub.add(client);
  hub.publish(TASKS_TOPIC, { kind: "delete", id: "t1" });
  hub.publish(taskTopic("t1"), { kind: "deleted" });
  hub.publish(taskTopic("t2"), { kind: "deleted" });
  hub.flush();
  assertEquals(got.map((e) => [e.topic, e.data]), [
    ["tasks", { kind: "delete", id: "t1" }],
    ["task:t1", { kind: "deleted" }],
  ]);
  assert(isTaskEvent(got[1]) && !isTaskEvent(got[0]));
});

function sources(dir: string, out: string[] = []): string[] {
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) sources(p, out);
    else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** The text of the call's arguments after `(` at `start`, up to its closing parenthesis. */
function callArgs(src: string, start: number): string {
  let depth = 1;
  for (let i = start; i < src.length; i++) {
    const c = src[i];
    if (c === "(" || c === "{" || c === "[") depth++;
    else if (c === ")" || c === "}" || c === "]") depth--;
    if (depth === 0) return src.slice(start, i);
  }
  throw new Error("unclosed call");
}

/** The first top-level argument of an argument list. */
function firstArg(args: string): string {
  let depth = 0;
  for (let i = 0; i < args.length; i++) {
    const c = args[i];
    if (c === "(" || c === "{" || c === "[") depth++;
    else if (c === ")" || c === "}" || c === "]") depth--;
    else if (c === "," && depth === 0) return args.slice(0, i).trim();
  }
  return args.trim();
}

/** The `*_TOPIC` constants that protocol/ exports. */
const topicConstants = (): string[] =>
  sources(join(ROOT, "protocol")).flatMap((f) =>
    [...Deno.readTextFileSync(f).matchAll(/export const (\w+_TOPIC) = /g)].map((m) => m[1])
  );

Deno.test("hub topics: every topic constant of protocol/ is a key of the topic map", () => {
  const map = Deno.readTextFileSync(join(ROOT, "protocol/topics.ts"));
  const body = map.slice(map.indexOf("export interface TopicMap {"));
  const constants = topicConstants();
  assert(constants.length >= 15, `only ${constants.length} topic constants found`);
  assertEquals(constants.filter((c) => !body.includes(`[${c}]:`)), []);
});

Deno.test("hub topics: every publish on the hub names a topic of the map, with no cast", () => {
  const constants = new Set(topicConstants());
  const dirs = ["server", "agent"].map((d) => join(ROOT, d)).filter((d) => {
    try {
      return Deno.statSync(d).isDirectory;
    } catch {
      return false;
    }
  });
  const bad: string[] = [];
  let calls = 0;
  for (const file of dirs.flatMap((d) => sources(d))) {
    const src = Deno.readTextFileSync(file);
    for (const m of src.matchAll(/\bhub\.publish\(/g)) {
      calls++;
      const args = callArgs(src, m.index + m[0].length);
      const topic = firstArg(args);
      const where = `${relative(ROOT, file)}:${src.slice(0, m.index).split("\n").length}`;
      // A local naming the task's topic: it must be made by `taskTopic`.
      const local = /^(?:this\.)?(\w+)$/.exec(topic)?.[1];
      const madeByTaskTopic = local !== undefined &&
        new RegExp(
          `(?:const ${local} = |get ${local}\\(\\)[^{]*\\{\\s*return )taskTopic\\(`,
        ).test(src);
      const named = constants.has(topic) || /^taskTopic\(.+\)$/s.test(topic) || madeByTaskTopic;
      if (!named) bad.push(`${where}: topic ${topic}`);
      if (/\bas\s+(?!const\b)|\bany\b/.test(args)) bad.push(`${where}: a cast in ${args}`);
      const lineBefore = src.slice(0, m.index).split("\n").at(-2) ?? "";
      if (/@ts-(?:ignore|expect-error|nocheck)/.test(lineBefore)) {
        bad.push(`${where}: type check switched off`);
      }
    }
  }
  assert(calls >= 40, `only ${calls} publish calls found: is the scan still looking?`);
  assertEquals(bad, []);
  // The hub is the one place that frames events.
  const framers = dirs.flatMap((d) => sources(d)).filter((f) =>
    /\bt:\s*"evt"/.test(Deno.readTextFileSync(f))
  ).map((f) => relative(ROOT, f));
  assertEquals(framers, ["server/sessions/hub.ts"]);
});
