/**
 * Questions MCP servers ask the user (elicitation, form mode): a connection hands the
 * request here with the tasks whose calls to that server were running, the form is shown
 * to the clients that have one of those tasks open (desktop and phone alike, whichever
 * answers first), and the answer — accept with the values, decline, or cancel — goes
 * back to the server. When no client has such a task open (or no task's call was
 * running), every client is asked instead: a question nobody sees would hold the
 * server's tool until it gives up, and the user who started the run expects to be asked
 * wherever they are, as a terminal would ask. A question shown only to a task's viewers
 * goes to every client once the last of them leaves. The server is hostile input: its schema must be the flat,
 * primitive kind the protocol allows (anything else is refused before the user sees it),
 * its texts are bounded and shown as text, and the values sent back are checked against
 * that schema here, so a tampered client cannot send the server something else.
 */
import type { McpElicitation, McpElicitField } from "../../protocol/mcp_servers.ts";

export const ELICIT_LIMITS = {
  pending: 20,
  fields: 20,
  messageChars: 2000,
  textChars: 300,
  valueChars: 10_000,
  enumValues: 100,
} as const;

export type ElicitAction = "accept" | "decline" | "cancel";
export interface ElicitAnswer {
  action: ElicitAction;
  content?: Record<string, string | number | boolean>;
}

/** A refused request or answer: the text says what is wrong. */
export class ElicitationError extends Error {}

/** Control characters (other than tab and newline) would garble the form: dropped. */
const text = (v: unknown, max: number) =>
  // deno-lint-ignore no-control-regex
  typeof v === "string" ? v.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "").slice(0, max) : "";
const num = (v: unknown) => typeof v === "number" && Number.isFinite(v) ? v : undefined;

/** The fields of a `requestedSchema`; throws for a schema that is not flat and primitive. */
export function fieldsOf(schema: unknown): McpElicitField[] {
  const s = schema as { type?: unknown; properties?: unknown; required?: unknown };
  if (!s || s.type !== "object" || typeof s.properties !== "object" || !s.properties) {
    throw new ElicitationError("the requested schema is not an object schema");
  }
  const entries = Object.entries(s.properties as Record<string, unknown>);
  if (entries.length > ELICIT_LIMITS.fields) {
    throw new ElicitationError(`the form has more than ${ELICIT_LIMITS.fields} fields`);
  }
  const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
  return entries.map(([name, raw]) => {
    const p = raw as Record<string, unknown>;
    const enumValues = Array.isArray(p.enum)
      ? p.enum
      : Array.isArray(p.oneOf)
      ? (p.oneOf as { const?: unknown }[]).map((o) => o?.const)
      : null;
    const type = p.type;
    if (type !== "string" && type !== "number" && type !== "integer" && type !== "boolean") {
      throw new ElicitationError(`field "${text(name, 60)}" is not a string, number or boolean`);
    }
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) {
      throw new ElicitationError(`field name "${text(name, 60)}" is not allowed`);
    }
    const f: McpElicitField = {
      name,
      title: text(p.title, ELICIT_LIMITS.textChars) || name,
      description: text(p.description, ELICIT_LIMITS.textChars),
      type,
      required: required.has(name),
    };
    if (enumValues) {
      if (type !== "string" || enumValues.length > ELICIT_LIMITS.enumValues) {
        throw new ElicitationError(`field "${name}" has an unusable list of choices`);
      }
      f.enum = enumValues.map((v) => text(v, ELICIT_LIMITS.textChars));
      const names = Array.isArray(p.enumNames)
        ? p.enumNames
        : Array.isArray(p.oneOf)
        ? (p.oneOf as { title?: unknown }[]).map((o) => o?.title)
        : null;
      if (names) f.enumNames = f.enum.map((v, i) => text(names[i], ELICIT_LIMITS.textChars) || v);
    }
    if (typeof p.format === "string" && /^(email|uri|date|date-time)$/.test(p.format)) {
      f.format = p.format;
    }
    for (const k of ["minLength", "maxLength", "minimum", "maximum"] as const) {
      const n = num(p[k]);
      if (n !== undefined) f[k] = n;
    }
    const d = p.default;
    if (
      (type === "boolean" && typeof d === "boolean") ||
      ((type === "number" || type === "integer") && num(d) !== undefined) ||
      (type === "string" && typeof d === "string")
    ) f.default = typeof d === "string" ? text(d, ELICIT_LIMITS.valueChars) : d as number | boolean;
    return f;
  });
}

/** The values of an accepted form, checked against its fields; throws what is wrong. */
export function checkContent(
  fields: McpElicitField[],
  content: unknown,
): Record<string, string | number | boolean> {
  if (typeof content !== "object" || content === null || Array.isArray(content)) {
    throw new ElicitationError("the answer must be an object of the form's values");
  }
  const out: Record<string, string | number | boolean> = {};
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const [k, v] of Object.entries(content)) {
    const f = byName.get(k);
    if (!f) throw new ElicitationError(`"${text(k, 60)}" is not a field of this form`);
    if (f.type === "boolean") {
      if (typeof v !== "boolean") throw new ElicitationError(`${f.title}: yes or no`);
    } else if (f.type === "number" || f.type === "integer") {
      if (typeof v !== "number" || !Number.isFinite(v)) {
        throw new ElicitationError(`${f.title}: a number`);
      }
      if (f.type === "integer" && !Number.isInteger(v)) {
        throw new ElicitationError(`${f.title}: a whole number`);
      }
      if (
        (f.minimum !== undefined && v < f.minimum) || (f.maximum !== undefined && v > f.maximum)
      ) {
        throw new ElicitationError(`${f.title}: out of range`);
      }
    } else {
      if (typeof v !== "string" || v.length > ELICIT_LIMITS.valueChars) {
        throw new ElicitationError(`${f.title}: a text of at most ${ELICIT_LIMITS.valueChars}`);
      }
      if (f.enum && !f.enum.includes(v)) throw new ElicitationError(`${f.title}: not a choice`);
      if (
        (f.minLength !== undefined && v.length < f.minLength) ||
        (f.maxLength !== undefined && v.length > f.maxLength)
      ) throw new ElicitationError(`${f.title}: wrong length`);
    }
    out[k] = v as string | number | boolean;
  }
  for (const f of fields) {
    if (f.required && !(f.name in out)) throw new ElicitationError(`${f.title} is required`);
  }
  return out;
}

interface Waiting {
  q: McpElicitation;
  resolve(a: ElicitAnswer): void;
}

/** Where questions are shown. */
export interface ElicitationRoutes {
  /** The questions every client is shown (the whole list). */
  everyone(list: McpElicitation[]): void;
  /** The questions shown to the clients that have task `taskId` open (its whole list). */
  task?(taskId: string, list: McpElicitation[]): void;
  /** Whether any client has task `taskId` open now. */
  watching?(taskId: string): boolean;
}

export class ElicitationCenter {
  #waiting = new Map<string, Waiting>();

  constructor(
    private routes: ElicitationRoutes,
    private now: () => number = Date.now,
  ) {}

  list(): McpElicitation[] {
    return [...this.#waiting.values()].map((w) => w.q);
  }

  /**
   * What one client is shown: the questions for everyone and those of the tasks it has
   * open (`topicOf(taskId)` in `topics`) or names (`taskId`, the task it is opening).
   */
  visibleTo(
    topics: ReadonlySet<string>,
    topicOf: (taskId: string) => string,
    taskId?: string,
  ): McpElicitation[] {
    return this.list().filter((q) =>
      q.everyone || q.taskIds.some((t) => t === taskId || topics.has(topicOf(t)))
    );
  }

  /**
   * Asks the clients that have one of `taskIds` open (every client when none has, or no
   * task is named); resolves with the answer, or `cancel` when the request is aborted.
   */
  async ask(
    server: string,
    params: { message?: unknown; requestedSchema?: unknown },
    signal?: AbortSignal,
    taskIds: readonly string[] = [],
  ): Promise<ElicitAnswer> {
    if (this.#waiting.size >= ELICIT_LIMITS.pending) {
      throw new ElicitationError("too many questions are waiting for an answer already");
    }
    const tasks = [...new Set(taskIds)].slice(0, 20);
    const q: McpElicitation = {
      id: `el-${crypto.randomUUID()}`,
      server,
      message: text(params.message, ELICIT_LIMITS.messageChars),
      fields: fieldsOf(params.requestedSchema),
      createdAt: this.now(),
      taskIds: tasks,
      everyone: !this.watched(tasks),
    };
    return await new Promise<ElicitAnswer>((resolve) => {
      const done = (a: ElicitAnswer) => {
        if (!this.#waiting.delete(q.id)) return;
        signal?.removeEventListener("abort", abort);
        this.publish(q);
        resolve(a);
      };
      const abort = () => done({ action: "cancel" });
      if (signal?.aborted) return resolve({ action: "cancel" });
      signal?.addEventListener("abort", abort);
      this.#waiting.set(q.id, { q, resolve: done });
      this.publish(q);
    });
  }

  /** Whether a client has one of `tasks` open (and questions can go to task viewers). */
  private watched(tasks: readonly string[]): boolean {
    const { task, watching } = this.routes;
    return Boolean(task && watching && tasks.some((t) => watching(t)));
  }

  /** Publishes the lists `q` is (or was) part of. */
  private publish(q: McpElicitation): void {
    const all = this.list();
    if (q.everyone) this.routes.everyone(all.filter((x) => x.everyone));
    else {
      for (const t of q.taskIds) {
        this.routes.task?.(t, all.filter((x) => !x.everyone && x.taskIds.includes(t)));
      }
    }
  }

  /**
   * A client left or closed a task: questions whose tasks nobody has open any more go to
   * every client.
   */
  reroute(): void {
    for (const { q } of this.#waiting.values()) {
      if (q.everyone || this.watched(q.taskIds)) continue;
      const was = { ...q };
      q.everyone = true;
      this.publish(was); // gone from its tasks' lists …
      this.publish(q); // … and in everyone's
    }
  }

  /** A user's answer; throws for an unknown id or values that do not fit the form. */
  answer(id: string, action: ElicitAction, content?: unknown): void {
    const w = this.#waiting.get(id);
    if (!w) throw new ElicitationError("this question was answered or withdrawn already");
    if (action !== "accept") return w.resolve({ action });
    w.resolve({ action, content: checkContent(w.q.fields, content ?? {}) });
  }

  /** Everything still open is cancelled (the server shuts down). */
  cancelAll(): void {
    for (const w of [...this.#waiting.values()]) w.resolve({ action: "cancel" });
  }
}
