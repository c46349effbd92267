/**
 * Where permission rules live and what a call offers them. Task rules are in the task's
 * settings; project and global rules in the data folder's key/value table (never in the
 * workspace, where the model could write its own permissions).
 */
import type { Repos } from "../../store/store.ts";
import type { TaskSummary } from "../../protocol/index.ts";
import {
  parseRule,
  type PermissionRule,
  type RuleSubject,
  type RulesView,
  type ScopedRule,
} from "../../protocol/permission_rules.ts";
import { patchPaths } from "../../tools/patch/parse.ts";
import { displayPath, resolvePath } from "../../tools/paths.ts";
import { join } from "../../lib/path.ts";

const KEY = "permissions.rules";

interface Stored {
  global: PermissionRule[];
  projects: Record<string, PermissionRule[]>;
}

const clean = (list: unknown): PermissionRule[] =>
  Array.isArray(list)
    ? list.filter((r): r is PermissionRule =>
      typeof r?.rule === "string" && parseRule(r.rule) !== null &&
      (r.policy === "allow" || r.policy === "ask" || r.policy === "deny")
    ).map((r) => ({ rule: r.rule.trim(), policy: r.policy }))
    : [];

function stored(repos: Repos): Stored {
  const v = repos.kv.get(KEY) as Partial<Stored> | null | undefined;
  const projects: Record<string, PermissionRule[]> = {};
  for (const [path, list] of Object.entries(v?.projects ?? {})) projects[path] = clean(list);
  return { global: clean(v?.global), projects };
}

/** Every rule that applies to a task: its own, its project's, the global ones. */
export function rulesFor(repos: Repos, task: TaskSummary & { settings?: unknown }): ScopedRule[] {
  const s = stored(repos);
  const own = clean((task.settings as { rules?: unknown } | undefined)?.rules);
  return [
    ...own.map((r) => ({ ...r, scope: "task" as const })),
    ...(task.projectPath ? s.projects[task.projectPath] ?? [] : []).map((r) => ({
      ...r,
      scope: "project" as const,
    })),
    ...s.global.map((r) => ({ ...r, scope: "global" as const })),
  ];
}

/** Every scope's rules for Settings; with `taskId`, that task's own too. */
export function rulesView(repos: Repos, taskId?: string): RulesView {
  const s = stored(repos);
  const projects = repos.projects.list();
  const paths = new Set([...projects.map((p) => p.path), ...Object.keys(s.projects)]);
  const task = taskId ? repos.tasks.get(taskId) : null;
  return {
    global: s.global,
    projects: [...paths].map((path) => ({
      path,
      name: projects.find((p) => p.path === path)?.name ?? path,
      rules: s.projects[path] ?? [],
    })),
    task: task ? { id: task.id, title: task.title, rules: clean(task.settings.rules) } : null,
  };
}

/**
 * A scope's new list, checked: every line a rule (`tool` or `tool(pattern)`), none twice.
 * The error names the line.
 */
export function checkedRules(rules: PermissionRule[]): PermissionRule[] {
  const seen = new Set<string>();
  const out: PermissionRule[] = [];
  for (const r of rules) {
    const rule = r.rule.trim();
    if (parseRule(rule) === null) {
      throw new Error(`not a rule: ${r.rule} (write tool or tool(pattern))`);
    }
    if (seen.has(rule)) throw new Error(`listed twice: ${rule} (keep one, with one policy)`);
    seen.add(rule);
    out.push({ rule, policy: r.policy });
  }
  return out;
}

/** Replaces the global or a project's rules; an invalid rule is refused with its text. */
export function saveRules(
  repos: Repos,
  scope: "global" | "project",
  projectPath: string | undefined,
  rules: PermissionRule[],
): void {
  const list = checkedRules(rules);
  const s = stored(repos);
  if (scope === "global") s.global = list;
  else {
    if (!projectPath) throw new Error("a project rule needs projectPath");
    if (list.length) s.projects[projectPath] = list;
    else delete s.projects[projectPath];
  }
  repos.kv.set(KEY, s);
}

/** The task's folder (for workspace-relative paths). */
export function workspaceFor(task: TaskSummary, home: string): string {
  return task.projectPath ?? join(home, "DefaultProject");
}

/** What a call offers to rule patterns: its command, the paths it names, or its URL. */
export function subjectOf(
  call: { name: string; args: Record<string, unknown> },
  workspace: string,
): RuleSubject {
  const a = call.args;
  if (typeof a.command === "string") return { kind: "command", command: a.command };
  const rel = (p: string) => displayPath(resolvePath(p, workspace), workspace);
  if (call.name === "apply_patch") return { kind: "paths", paths: patchPaths(a.input).map(rel) };
  if (typeof a.path === "string") return { kind: "paths", paths: [rel(a.path)] };
  if (typeof a.url === "string") return { kind: "url", url: a.url };
  return { kind: "none" };
}
