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

export function rulesView(repos: Repos): RulesView {
  const s = stored(repos);
  const projects = repos.projects.list();
  const paths = new Set([...projects.map((p) => p.path), ...Object.keys(s.projects)]);
  return {
    global: s.global,
    projects: [...paths].map((path) => ({
      path,
      name: projects.find((p) => p.path === path)?.name ?? path,
      rules: s.projects[path] ?? [],
    })),
  };
}

/** Replaces one scope's rules; an invalid rule is refused with its text. */
export function saveRules(
  repos: Repos,
  scope: "global" | "project",
  projectPath: string | undefined,
  rules: PermissionRule[],
): void {
  const bad = rules.find((r) => parseRule(r.rule) === null);
  if (bad) throw new Error(`not a rule: ${bad.rule} (write tool or tool(pattern))`);
  const s = stored(repos);
  const list = rules.map((r) => ({ rule: r.rule.trim(), policy: r.policy }));
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
