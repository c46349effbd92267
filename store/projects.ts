/**
 * Projects: folders the user added as workspaces, in the user's order.
 * A task belongs to a project by its `project_path`; removing a project never touches
 * tasks (they keep their path and list under "Tasks" until the folder is added again).
 * All project SQL lives here.
 */
import { inSavepoint } from "./savepoint.ts";
import type { DatabaseSync } from "node:sqlite";
import type { Project } from "../protocol/projects.ts";

interface ProjectRow {
  id: string;
  path: string;
  name: string;
  sort: number;
  created_at: number;
  updated_at: number;
  task_count: number;
  setup_command: string | null;
}

const SELECT = `SELECT p.id, p.path, p.name, p.sort, p.created_at, p.updated_at, p.setup_command,
  (SELECT count(*) FROM task t WHERE
    COALESCE(t.settings ->> '$.worktree.repo', t.project_path) = p.path) AS task_count
  FROM project p`;

const toProject = (r: ProjectRow): Project => ({
  id: r.id,
  path: r.path,
  name: r.name,
  sort: r.sort,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  taskCount: r.task_count,
  setupCommand: r.setup_command,
});

export class ProjectRepo {
  constructor(private db: DatabaseSync, private now: () => number = Date.now) {}

  /** In the user's order (then oldest first). */
  list(): Project[] {
    const rows = this.db.prepare(`${SELECT} ORDER BY p.sort, p.created_at, p.id`).all();
    return (rows as unknown as ProjectRow[]).map(toProject);
  }

  get(id: string): Project | null {
    const row = this.db.prepare(`${SELECT} WHERE p.id = ?`).get(id) as ProjectRow | undefined;
    return row ? toProject(row) : null;
  }

  byPath(path: string): Project | null {
    const row = this.db.prepare(`${SELECT} WHERE p.path = ?`).get(path) as
      | ProjectRow
      | undefined;
    return row ? toProject(row) : null;
  }

  /** Appends a project at the end of the list. The path must not be listed yet. */
  add(p: { id: string; path: string; name: string }): Project {
    const at = this.now();
    const sort = (this.db.prepare("SELECT COALESCE(MAX(sort), 0) + 1 AS s FROM project").get() as {
      s: number;
    }).s;
    this.db.prepare(
      "INSERT INTO project (id, path, name, sort, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(p.id, p.path, p.name, sort, at, at);
    return this.get(p.id)!;
  }

  /** Returns the renamed project, or null when it does not exist. */
  /** The command run in each new worktree of the project (null = none). */
  setSetup(id: string, command: string | null): Project | null {
    const r = this.db.prepare("UPDATE project SET setup_command = ?, updated_at = ? WHERE id = ?")
      .run(command, this.now(), id);
    return r.changes === 0 ? null : this.get(id);
  }

  rename(id: string, name: string): Project | null {
    const r = this.db.prepare("UPDATE project SET name = ?, updated_at = ? WHERE id = ?")
      .run(name, this.now(), id);
    return r.changes === 0 ? null : this.get(id);
  }

  /** Removes the project row only (its tasks are kept). False when it did not exist. */
  remove(id: string): boolean {
    return this.db.prepare("DELETE FROM project WHERE id = ?").run(id).changes > 0;
  }

  /**
   * Sets the order: `ids` must name every project exactly once (checked by the
   * caller). Runs in one transaction.
   */
  reorder(ids: string[]): Project[] {
    const at = this.now();
    const stmt = this.db.prepare("UPDATE project SET sort = ?, updated_at = ? WHERE id = ?");
    inSavepoint(this.db, "project_reorder", () => ids.forEach((id, i) => stmt.run(i + 1, at, id)));
    return this.list();
  }
}
