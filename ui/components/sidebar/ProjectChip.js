/**
 * Which project the conversation works in, for the header: in the draft, the project
 * the first send will create the task in (with × to work without a project); in a
 * task, its project's name (or its folder when the project was removed).
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { draftProject, projectByPath } from "../../state/projects.js";
import { currentId, currentTask } from "../../state/tasks.js";
import { IconClose } from "../Icons.js";
import { IconFolder } from "./icons.js";

export function ProjectChip() {
  const drafting = currentId.value === null;
  const path = drafting ? draftProject.value : currentTask.value?.projectPath ?? null;
  if (!path) return null;
  const name = projectByPath(path)?.name ?? path.split(/[\\/]/).filter(Boolean).pop() ?? path;
  return html`
    <span
      class="project-chip"
      data-testid="project-chip"
      title=${t("projects.chipTitle", { path })}
    >
      <${IconFolder} size=${14} />
      <span class="project-chip-name">${name}</span>
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
        `}
    </span>
  `;
}
