/**
 * Which folder the conversation works in, for the header: in the draft, the project
 * the first send will create the task in (with × to work without a project); in a
 * task, always its folder — its project's name (with the parent folder when two
 * projects share a name, or the folder when the project was removed), or "No project"
 * for a task without one (it works in the data folder's DefaultProject, named in the
 * tooltip) — so two tasks with the same title in different folders can be told apart.
 * The full path is in the tooltip.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { draftProject, draftWorktree, projectByPath, projects } from "../../state/projects.js";
import { openReview, reviewing } from "../../state/worktree.js";
import { IconBranch, IconFolder } from "./icons.js";
import { lazy } from "../lazy.js";
import { SameFolderDialog } from "../worktree/SameFolderDialog.js";
import { currentId, currentTask } from "../../state/tasks.js";
import { IconClose } from "../Icons.js";

// Opened from the branch chip only: fetched when first shown.
const WorktreeDialog = lazy(() => import("../worktree/WorktreeDialog.js"), "WorktreeDialog");

/** The folder tasks without a project run in (under the data folder). */
const DEFAULT_FOLDER = "DefaultProject";

/** @param {string} path */
const segments = (path) => path.split(/[\\/]/).filter(Boolean);

/**
 * The chip's label for a project folder: its name, or "parent/name" when another
 * project has the same name.
 * @param {string} path
 */
export function folderLabel(path) {
  const name = projectByPath(path)?.name ?? segments(path).pop() ?? path;
  const twins = projects.value.filter((p) => p.name === name && p.path !== path);
  if (!twins.length) return name;
  const parent = segments(path).slice(-2, -1)[0];
  return parent ? `${parent}/${name}` : name;
}

export function ProjectChip() {
  const drafting = currentId.value === null;
  const task = currentTask.value;
  const worktree = drafting ? null : task?.settings.worktree ?? null;
  // A task in a worktree of its own is named by the repository it came from.
  const path = drafting ? draftProject.value : worktree?.repo ?? task?.projectPath ?? null;
  if (drafting ? !path : !task) return null;
  const label = path ? folderLabel(path) : t("projects.chipNone");
  const title = path
    ? t("projects.chipTitle", { path })
    : t("projects.chipDefaultTitle", { folder: DEFAULT_FOLDER });
  return html`
    <span
      class="project-chip"
      data-testid="project-chip"
      data-project=${path ? "project" : "none"}
      title=${title}
    >
      <${IconFolder} size=${14} />
      <span class="project-chip-name">${label}</span>
      ${drafting &&
        html`
          <button
            type="button"
            class="project-chip-clear"
            data-testid="project-chip-clear"
            aria-label=${t("projects.noProject")}
            title=${t("projects.noProject")}
            onClick=${() => draftProject.value = null}
          >
            <${IconClose} size=${12} />
          </button>
          <${SameFolderDialog} />
          <button
            type="button"
            class="project-chip-worktree"
            data-testid="draft-worktree"
            aria-pressed=${draftWorktree.value ? "true" : "false"}
            title=${t("worktree.toggleTitle")}
            onClick=${() => draftWorktree.value = !draftWorktree.value}
          >
            <${IconBranch} />
            <span class="project-chip-worktree-label">${t("worktree.toggle")}</span>
          </button>
        `}
      ${worktree && task &&
        html`
          <button
            type="button"
            class="project-chip-branch"
            data-testid="worktree-chip"
            title=${t("worktree.chipTitle", { branch: worktree.branch, path: worktree.path })}
            onClick=${() => openReview(task.id)}
          >
            <${IconBranch} />
            <span class="project-chip-name">${worktree.branch}</span>
          </button>
          ${reviewing.value === task.id && html`<${WorktreeDialog} taskId=${task.id} />`}
        `}
    </span>
  `;
}
