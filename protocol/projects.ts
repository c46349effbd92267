/**
 * Protocol ops for Projects (user-added folders), the server-side folder browser and sidebar layout.
 * Merged into `OP_ARGS` by `protocol.ts`; the UI imports it through `protocol.ts`.
 *
 * A task belongs to a project through its `projectPath` (= the project's `path`).
 * Removing a project keeps its tasks: they list under "Tasks" (still running in their
 * folder) until the folder is added again. Every change is pushed on topic
 * {@link PROJECTS_TOPIC} as the full list ({@link ProjectsEvent}); `projects.list`
 * returns a snapshot and subscribes the caller.
 */
import { arr, bool, nullable, obj, type Schema, str } from "./schema.ts";

/** A folder the user added as a workspace. */
export interface Project {
  id: string;
  /** Absolute, symlinks resolved; unique. */
  path: string;
  /** Shown in the sidebar; defaults to the folder's name. */
  name: string;
  sort: number;
  createdAt: number;
  updatedAt: number;
  /** Tasks whose `projectPath` is this folder. */
  taskCount: number;
  /**
   * Run in each new worktree of the project before its task starts (copy `.env`,
   * `npm install` …), in the task's sandbox; null = none.
   */
  setupCommand: string | null;
}

/** One sub-folder in the folder browser. */
export interface DirEntry {
  name: string;
  path: string;
  /** Starts with a dot. */
  hidden: boolean;
}

/** Topic `projects`: the full list after every change. */
export type ProjectsEvent = { kind: "list"; projects: Project[] };
export const PROJECTS_TOPIC = "projects";

export const PROJECT_LIMITS = {
  nameChars: 80,
  maxProjects: 200,
  /** Sub-folders returned by `fs.listDirs` (the rest is reported as truncated). */
  maxDirs: 2000,
} as const;

const projectId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
const folderPath = str({ min: 1, max: 4096 });
const projectName = str({ min: 1, max: PROJECT_LIMITS.nameChars });

export const PROJECT_OP_ARGS = {
  /** The projects in the user's order, and live `projects` events from then on. */
  "projects.list": obj({}),
  /** Adds an existing folder (absolute or `~`-relative path); realpath'd, no duplicates. */
  /**
   * A folder too wide for an agent (the root, a system folder, the home folder, one that
   * holds the data folder) is refused with `needs_confirmation` unless `confirmWide`.
   */
  "projects.add": obj({ path: folderPath, "name?": projectName, "confirmWide?": bool }),
  /** Changes the display name only (tasks stay linked by path). */
  "projects.rename": obj({ id: projectId, name: projectName }),
  /** The command run in each new worktree of the project; null or "" = none. */
  "projects.setSetup": obj({ id: projectId, command: nullable(str({ max: 2000 })) }),
  /** Forgets the folder; its tasks are kept and list under "Tasks". Files are untouched. */
  "projects.remove": obj({ id: projectId }),
  /** New order: every project id exactly once. */
  "projects.reorder": obj({ ids: arr(projectId, PROJECT_LIMITS.maxProjects) }),
  /** Folder browser: the sub-folders of `path` (`~` = home directory). */
  "fs.listDirs": obj({ path: folderPath }),
} satisfies Record<string, Schema>;

export interface ProjectOpResults {
  "projects.list": { projects: Project[]; seq: number };
  "projects.add": { project: Project };
  "projects.rename": { project: Project };
  "projects.setSetup": { project: Project };
  "projects.remove": { id: string; tasksKept: number };
  "projects.reorder": { projects: Project[] };
  "fs.listDirs": {
    /** The folder listed (absolute, symlinks resolved). */
    path: string;
    /** Its parent; null at the file-system root. */
    parent: string | null;
    home: string;
    dirs: DirEntry[];
    /** More than {@link PROJECT_LIMITS.maxDirs} sub-folders: the rest is left out. */
    truncated: boolean;
  };
}
