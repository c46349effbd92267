/**
 * Handlers for the project ops and the server-side folder browser. Projects are
 * folders on the server's machine; a path is checked (exists, is a folder, readable),
 * resolved to its real path and never listed twice. Every change is pushed on topic
 * `projects` as the full list.
 */
import { wideFolderReason } from "../files/wide_folder.ts";
import { homeDir } from "../../lib/home_dir.ts";
import { basename, dirname, isAbsolute, join, resolve } from "../../lib/path.ts";
import {
  type Project,
  PROJECT_LIMITS,
  type PROJECT_OP_ARGS,
  PROJECTS_TOPIC,
} from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import { makeIdGenerator } from "../../store/ids.ts";
import type { ProjectRepo } from "../../store/projects.ts";
import { type OpContext, services } from "./context.ts";
import type { OpHandlers } from "./types.ts";

const newId = makeIdGenerator();

/** The project repository (`store_unavailable` when the database is down). */
const repo = (ctx: OpContext): ProjectRepo => services(ctx).repos.projects;

/** Pushes the full list to every subscribed client. */
function publish(ctx: OpContext): Project[] {
  const projects = repo(ctx).list();
  ctx.hub.publish(PROJECTS_TOPIC, { kind: "list", projects });
  return projects;
}

/** Expands `~` / `~/…` and requires an absolute path. */
export function expandPath(raw: string): string {
  const p = raw.trim();
  if (/[\0\n\r]/.test(p)) throw new OpError("invalid_args", "the path contains control characters");
  const home = homeDir();
  if (p === "~") return home;
  if (p.startsWith("~/") || p.startsWith("~\\")) return join(home, p.slice(2));
  if (!p) throw new OpError("invalid_args", "the path is empty");
  if (!isAbsolute(p)) {
    throw new OpError("invalid_args", `"${p}" is not an absolute path (start with / or ~)`);
  }
  return resolve(p);
}

/**
 * The real path of an existing, readable folder, or a clear OpError:
 * `not_found` (does not exist), `invalid_args` (not a folder, permission denied).
 */
export async function realFolder(raw: string): Promise<string> {
  const p = expandPath(raw);
  let real: string;
  try {
    real = await Deno.realPath(p);
  } catch (e) {
    throw fsError(e, p);
  }
  let st: Deno.FileInfo;
  try {
    st = await Deno.stat(real);
  } catch (e) {
    throw fsError(e, p);
  }
  if (!st.isDirectory) throw new OpError("invalid_args", `${p} is not a folder`);
  return real;
}

function fsError(e: unknown, p: string): OpError {
  if (e instanceof Deno.errors.NotFound) {
    return new OpError("not_found", `the folder ${p} does not exist`);
  }
  if (e instanceof Deno.errors.PermissionDenied || e instanceof Deno.errors.NotCapable) {
    return new OpError("invalid_args", `permission denied: cannot open ${p}`);
  }
  if (e instanceof Deno.errors.NotADirectory) {
    return new OpError("invalid_args", `${p} is not a folder`);
  }
  return new OpError("internal", `cannot open ${p}: ${(e as Error).message}`);
}

function needProject(ctx: OpContext, id: string): Project {
  const p = repo(ctx).get(id);
  if (!p) throw new OpError("not_found", `project ${id} does not exist`);
  return p;
}

const cleanName = (name: string): string => {
  const n = name.replace(/\s+/g, " ").trim();
  if (!n) throw new OpError("invalid_args", "the project name is empty");
  return n;
};

export const PROJECT_HANDLERS: OpHandlers<keyof typeof PROJECT_OP_ARGS> = {
  "projects.list": (ctx) => {
    // Snapshot and subscription in the same tick: no event can fall between them.
    const projects = repo(ctx).list();
    ctx.client.topics.add(PROJECTS_TOPIC);
    return { projects, seq: ctx.hub.lastSeq };
  },
  "projects.add": async (ctx, a) => {
    const r = repo(ctx);
    const path = await realFolder(a.path);
    const wide = wideFolderReason(path, ctx.home);
    if (wide && !a.confirmWide) {
      throw new OpError(
        "needs_confirmation",
        `${path} is ${wide}: an agent working there could change anything under it. ` +
          "Add it anyway only if you mean it; its tasks will ask before every change.",
      );
    }
    const name = a.name === undefined ? basename(path) || path : cleanName(a.name);
    const dup = r.byPath(path);
    if (dup) throw new OpError("conflict", `${path} is already a project ("${dup.name}")`);
    if (r.list().length >= PROJECT_LIMITS.maxProjects) {
      throw new OpError("too_large", `at most ${PROJECT_LIMITS.maxProjects} projects`);
    }
    const project = r.add({ id: newId("p"), path, name });
    publish(ctx);
    return { project };
  },
  "projects.setSetup": (ctx, a) => {
    needProject(ctx, a.id);
    const command = a.command?.trim() ? a.command.trim() : null;
    const project = repo(ctx).setSetup(a.id, command)!;
    publish(ctx);
    return { project };
  },
  "projects.rename": (ctx, a) => {
    needProject(ctx, a.id);
    const project = repo(ctx).rename(a.id, cleanName(a.name))!;
    publish(ctx);
    return { project };
  },
  "projects.remove": (ctx, a) => {
    const p = needProject(ctx, a.id);
    repo(ctx).remove(a.id);
    publish(ctx);
    return { id: a.id, tasksKept: p.taskCount };
  },
  "projects.reorder": (ctx, a) => {
    const r = repo(ctx);
    const known = new Set(r.list().map((p) => p.id));
    const ids = a.ids;
    const given = new Set(ids);
    if (given.size !== ids.length) throw new OpError("invalid_args", "ids lists a project twice");
    const unknown = ids.find((id) => !known.has(id));
    if (unknown) throw new OpError("not_found", `project ${unknown} does not exist`);
    if (given.size !== known.size) {
      throw new OpError(
        "invalid_args",
        `ids must list every project exactly once (${known.size} projects, ${given.size} given)`,
      );
    }
    r.reorder(ids);
    return { projects: publish(ctx) };
  },
  "fs.listDirs": async (_ctx, a) => {
    const path = await realFolder(a.path);
    const dirs: { name: string; path: string; hidden: boolean }[] = [];
    let truncated = false;
    try {
      for await (const e of Deno.readDir(path)) {
        let isDir = e.isDirectory;
        if (e.isSymlink) {
          isDir = await Deno.stat(join(path, e.name)).then((s) => s.isDirectory, () => false);
        }
        if (!isDir) continue;
        if (dirs.length >= PROJECT_LIMITS.maxDirs) {
          truncated = true;
          break;
        }
        dirs.push({ name: e.name, path: join(path, e.name), hidden: e.name.startsWith(".") });
      }
    } catch (e) {
      throw fsError(e, path);
    }
    dirs.sort((x, y) =>
      Number(x.hidden) - Number(y.hidden) ||
      x.name.localeCompare(y.name, undefined, { sensitivity: "base", numeric: true }) ||
      (x.name < y.name ? -1 : x.name > y.name ? 1 : 0)
    );
    const parent = dirname(path);
    return { path, parent: parent === path ? null : parent, home: homeDir(), dirs, truncated };
  },
};
