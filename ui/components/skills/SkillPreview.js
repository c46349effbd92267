/**
 * A skill's SKILL.md rendered as Markdown (frontmatter left out: its name and path are
 * the title and meta line), in the viewer dialog the context panel uses.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { skillBody, skillPreview } from "../../state/skills.js";
import { Markdown } from "../Markdown.js";
import { ViewerDialog } from "../search/ViewerDialog.js";

export function SkillPreview() {
  const p = skillPreview.value;
  if (!p) return null;
  return html`
    <${ViewerDialog}
      title=${p.name}
      meta=${html`<span class="ctx-viewer-meta skill-preview-path">${p.path}</span>`}
      testid="skill-preview"
      closeTestid="skill-preview-close"
      extraClass="skill-preview"
      onClose=${() => (skillPreview.value = null)}
    >
      <div class="ctx-viewer-body skill-preview-body">
        ${p.error
          ? html`<p class="field-help field-error" role="alert">${p.error}</p>`
          : p.text === null
          ? html`<p class="settings-note">${t("settings.loading")}</p>`
          : html`<${Markdown} text=${skillBody(p.text)} />`}
      </div>
      <//>
  `;
}
