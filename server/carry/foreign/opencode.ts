/**
 * opencode sessions. Current versions keep them in SQLite,
 * `~/.local/share/opencode/opencode.db`: tables `session` (id, directory, title),
 * `message` (per session; `data` JSON with `role`, `modelID`, `tokens`) and `part`
 * (per message; `data` JSON: `text`, `reasoning`, `tool` with `callID` and
 * `state {status, input, output, error}`, `file`, step markers). Older versions wrote
 * the same JSON as files: `storage/session/<project>/<id>.json`,
 * `storage/message/<session>/<id>.json`, `storage/part/<message>/<id>.json`. Both are
 * read; the database is opened read-only.
 */
import { join } from "../../../lib/path.ts";
import { DatabaseSync } from "node:sqlite";
import type { ForeignSession, ReadResult } from "./session.ts";
import { argsOf, asStr, TimelineBuilder, timeOf, usageOf } from "./session.ts";
import { byCodeUnit } from "../../../lib/compare.ts";

interface RawMessage {
  id: string;
  at: number;
  data: Record<string, unknown>;
  parts: Record<string, unknown>[];
}

interface RawSession {
  id: string;
  title: string;
  directory: string | null;
  messages: RawMessage[];
}

function toSession(s: RawSession, file: string): ForeignSession {
  const b = new TimelineBuilder();
  for (const m of s.messages) {
    if (m.data.role === "user") {
      const text = m.parts.filter((p) => p.type === "text" && p.synthetic !== true)
        .map((p) => asStr(p.text)).join("\n");
      b.user(text, m.at);
      continue;
    }
    if (m.data.role !== "assistant") continue;
    b.endStep();
    const t = m.data.tokens as Record<string, unknown> | undefined;
    const cache = (t?.cache ?? {}) as Record<string, unknown>;
    const meta: Record<string, unknown> = {};
    if (m.data.modelID) meta.model = `opencode/${asStr(m.data.modelID)}`;
    const usage = t && usageOf(t.input, t.output, cache.read, cache.write);
    if (usage) meta.usage = usage;
    const results: { id: string; name: string; text: string; isError: boolean }[] = [];
    for (const p of m.parts) {
      if (p.type === "text" && p.synthetic !== true) b.text(asStr(p.text), m.at, meta);
      else if (p.type === "reasoning") b.thinking(asStr(p.text), m.at, meta);
      else if (p.type === "tool") {
        const state = (p.state ?? {}) as Record<string, unknown>;
        const id = asStr(p.callID) || asStr(p.id);
        const name = asStr(p.tool) || "tool";
        b.toolCall(id, name, argsOf(state.input), m.at, meta);
        if (state.status === "completed" || state.status === "error") {
          const isError = state.status === "error";
          results.push({ id, name, text: asStr(isError ? state.error : state.output), isError });
        }
      }
    }
    // opencode keeps a call's result in the call's part; ReinAgent shows it after the step.
    for (const r of results) b.toolResult(r.id, r.text, r.isError, m.at, r.name);
  }
  return {
    source: "opencode",
    sessionId: s.id,
    file,
    title: s.title || undefined,
    cwd: s.directory,
    entries: b.entries,
  };
}

const parseData = (v: unknown): Record<string, unknown> => {
  try {
    const o = JSON.parse(String(v));
    return o && typeof o === "object" && !Array.isArray(o) ? o : {};
  } catch {
    return {};
  }
};

/** How many top-level sessions an opencode database or storage folder holds (0 when unreadable). */
export async function countOpencodeSessions(path: string): Promise<number> {
  const st = await Deno.stat(path).catch(() => null);
  if (st?.isDirectory) {
    let n = 0;
    try {
      for await (const p of Deno.readDir(join(path, "session"))) {
        if (!p.isDirectory) continue;
        for await (const f of Deno.readDir(join(path, "session", p.name))) {
          if (f.isFile && f.name.endsWith(".json")) n++;
        }
      }
    } catch { /* an unreadable folder counts what was seen */ }
    return n;
  }
  try {
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const r = db.prepare("SELECT count(*) AS n FROM session WHERE parent_id IS NULL").get() as {
        n: number;
      };
      return r.n;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}

/** Sessions of an opencode database (opened read-only; never written). */
export function readOpencodeDb(path: string): ReadResult {
  const problems: string[] = [];
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { readOnly: true });
  } catch (e) {
    return { sessions: [], problems: [`${path}: cannot open (${(e as Error).message})`] };
  }
  try {
    const sessions = db.prepare(
      "SELECT id, title, directory FROM session WHERE parent_id IS NULL ORDER BY time_created",
    ).all() as { id: string; title: string; directory: string | null }[];
    const messages = db.prepare(
      "SELECT id, time_created, data FROM message WHERE session_id = ? ORDER BY time_created, id",
    );
    const parts = db.prepare(
      "SELECT message_id, data FROM part WHERE session_id = ? ORDER BY time_created, id",
    );
    const out: ForeignSession[] = [];
    for (const s of sessions) {
      const byMessage = new Map<string, Record<string, unknown>[]>();
      for (const p of parts.all(s.id) as { message_id: string; data: string }[]) {
        const list = byMessage.get(p.message_id) ?? [];
        list.push(parseData(p.data));
        byMessage.set(p.message_id, list);
      }
      const raw = (messages.all(s.id) as { id: string; time_created: number; data: string }[])
        .map((m) => ({
          id: m.id,
          at: m.time_created,
          data: parseData(m.data),
          parts: byMessage.get(m.id) ?? [],
        }));
      out.push(toSession({ ...s, messages: raw }, `${path}#${s.id}`));
    }
    return { sessions: out, problems };
  } catch (e) {
    return {
      sessions: [],
      problems: [`${path}: not an opencode database (${(e as Error).message})`],
    };
  } finally {
    db.close();
  }
}

async function jsonFiles(
  dir: string,
  problems: string[],
  cap: number,
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let entries: Deno.DirEntry[] = [];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!e.isFile || !e.name.endsWith(".json") || out.length >= cap) continue;
    const path = join(dir, e.name);
    try {
      const st = await Deno.stat(path);
      if (st.size > 8 * 1024 * 1024) {
        problems.push(`${path}: larger than 8 MB; skipped`);
        continue;
      }
      const o = JSON.parse(await Deno.readTextFile(path));
      if (o && typeof o === "object" && !Array.isArray(o)) out.push(o);
      else problems.push(`${path}: not a JSON object`);
    } catch {
      problems.push(`${path}: not valid JSON`);
    }
  }
  return out;
}

/** Sessions of an older opencode `storage` folder (JSON files). */
export async function readOpencodeStorage(
  storage: string,
  maxSessions: number,
): Promise<ReadResult> {
  const problems: string[] = [];
  const sessions: ForeignSession[] = [];
  let projects: Deno.DirEntry[] = [];
  try {
    projects = await Array.fromAsync(Deno.readDir(join(storage, "session")));
  } catch {
    return { sessions, problems: [`${storage}: no session folder`] };
  }
  for (const project of projects.filter((p) => p.isDirectory)) {
    for (
      const s of await jsonFiles(join(storage, "session", project.name), problems, maxSessions)
    ) {
      if (sessions.length >= maxSessions || typeof s.id !== "string" || s.parentID) continue;
      const sid = s.id;
      if (!/^[A-Za-z0-9_-]{1,128}$/.test(sid)) continue;
      const messages: RawMessage[] = [];
      for (const m of await jsonFiles(join(storage, "message", sid), problems, 100_000)) {
        const mid = asStr(m.id);
        if (!/^[A-Za-z0-9_-]{1,128}$/.test(mid)) continue;
        const time = (m.time ?? {}) as Record<string, unknown>;
        const parts = (await jsonFiles(join(storage, "part", mid), problems, 100_000))
          .sort((a, b) => byCodeUnit(asStr(a.id), asStr(b.id)));
        messages.push({ id: mid, at: timeOf(time.created, 0), data: m, parts });
      }
      messages.sort((a, b) => a.at - b.at || byCodeUnit(a.id, b.id));
      const dir = asStr(s.directory) || null;
      sessions.push(
        toSession(
          { id: sid, title: asStr(s.title), directory: dir, messages },
          join(storage, "session", project.name, `${sid}.json`),
        ),
      );
    }
  }
  return { sessions, problems };
}
