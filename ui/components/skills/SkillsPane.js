/**
 * Settings → Skills (also the sidebar's Skills entry): the skills found in ReinAgent's
 * folder, the shown task's project and the folders of Claude Code, Codex and Agent
 * Skills — each with its source, description and switch (off until turned on, except
 * those installed into ReinAgent's folder), a preview of its SKILL.md and, for installed
 * ones, a two-step delete. Search filters by name and description; install adds one.
 *
 * @typedef {import("../../../protocol/index.ts").SkillInfo} SkillInfo
 */
import { useEffect, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import {
  loadSkills,
  previewSkill,
  removeSkill,
  setSkillEnabled,
  shownSkills,
  skillsError,
  skillsOverview,
  skillsQuery,
} from "../../state/skills.js";
import { IconPlus, IconTrash, InlineConfirm, Switch } from "../settings/controls.js";
import { SkillInstall } from "./SkillInstall.js";
import { SkillPreview } from "./SkillPreview.js";

/** @param {{s: SkillInfo}} props */
function SkillRow({ s }) {
  const [err, setErr] = useState(/** @type {string|null} */ (null));
  const [confirm, setConfirm] = useState(false);
  return html`
    <li class="mcp-row skill-row" data-testid="skill-row" data-key=${s.key}
      data-enabled=${s.enabled ? "true" : "false"}>
      <div class="mcp-row-main">
        <div class="mcp-row-title">
          <span class="mcp-id skill-name">${s.name}</span>
          <span class="badge" data-testid="skill-source">${t(
            /** @type {const} */ (`skills.source.${s.source}`),
          )}</span>
        </div>
        ${s.description && html`<div class="mcp-desc skill-desc">${s.description}</div>`}
        <div class="mcp-target skill-path" title=${s.path}>${s.path}</div>
        ${s.problem &&
          html`<div class="mcp-error" data-testid="skill-problem">${s.problem}</div>`}
        ${err && html`<p class="field-help field-error" role="alert">${err}</p>`}
      </div>
      <div class="mcp-row-actions">
        <${Switch}
          checked=${s.enabled}
          label=${t("skills.enabled")}
          testid="skill-enable"
          disabled=${s.problem !== null}
          onChange=${async (/** @type {boolean} */ v) => setErr(await setSkillEnabled(s.key, v))}
        />
        <button type="button" class="btn btn-small" data-testid="skill-preview-open"
          onClick=${() => previewSkill(s)}>${t("skills.preview")}</button>
        ${s.source === "reinagent" && (confirm
          ? html`
            <${InlineConfirm}
              text=${t("skills.deleteConfirm", { name: s.name })}
              confirmLabel=${t("skills.delete")}
              testid="skill-delete-confirm"
              onConfirm=${async () => {
                setConfirm(false);
                setErr(await removeSkill(s.key));
              }}
              onCancel=${() => setConfirm(false)}
            />
          `
          : html`
            <button type="button" class="icon-btn" data-testid="skill-delete"
              title=${t("skills.delete")} aria-label=${t("skills.delete")}
              onClick=${() => setConfirm(true)}><${IconTrash} size=${16} /></button>
          `)}
      </div>
    </li>
  `;
}

export function SkillsPane() {
  const [installing, setInstalling] = useState(false);
  useEffect(() => void loadSkills(), []);
  const o = skillsOverview.value;
  const list = shownSkills.value;
  const enabled = (o?.skills ?? []).filter((s) => s.enabled).length;
  return html`
    <section class="settings-section mcp-pane skills-pane" data-testid="skills-pane"
      aria-labelledby="skills-title">
      <div class="mcp-head">
        <h2 id="skills-title" class="provider-title">${t("skills.title")}</h2>
        ${o &&
          html`<span class="badge" data-testid="skills-count">${
            t("skills.count", { on: enabled, all: o.skills.length })
          }</span>`}
        <span class="grow"></span>
        <button type="button" class="btn btn-accent" data-testid="skill-install-open"
          aria-expanded=${installing ? "true" : "false"}
          onClick=${() => setInstalling(!installing)}><${IconPlus} size=${16} /> ${t(
            "skills.install",
          )}</button>
      </div>
      <p class="settings-note">${t("skills.intro")}</p>
      ${installing && html`<${SkillInstall} />`}
      ${o?.fileError &&
        html`
          <div class="banner banner-danger" role="alert" data-testid="skills-file-error">
            <p>${t("skills.fileError")}</p>
            <p class="banner-sub">${o.fileError}</p>
          </div>
        `}
      ${skillsError.value &&
        html`<p class="field-help field-error" role="alert">${skillsError.value}</p>`}
      <input
        type="search"
        class="input skills-search"
        data-testid="skills-search"
        placeholder=${t("skills.search")}
        aria-label=${t("skills.search")}
        value=${skillsQuery.value}
        onInput=${(/** @type {Event} */ e) =>
          skillsQuery.value = /** @type {HTMLInputElement} */ (e.currentTarget).value}
      />
      ${!o
        ? html`<p class="settings-note">${t("settings.loading")}</p>`
        : o.skills.length === 0
        ? html`<p class="settings-note" data-testid="skills-empty">${t("skills.empty")}</p>`
        : list.length === 0
        ? html`<p class="settings-note" data-testid="skills-no-match">${t("skills.noMatch")}</p>`
        : html`<ul class="mcp-list" data-testid="skills-list">
          ${list.map((s) => html`<${SkillRow} key=${s.key} s=${s} />`)}
        </ul>`}
      ${o && o.problems.length > 0 &&
        html`
          <details class="skills-problems" data-testid="skills-problems">
            <summary>${tn("skills.problems", o.problems.length)}</summary>
            <ul>
              ${o.problems.map((p) => html`<li><code>${p.path}</code>: ${p.message}</li>`)}
            </ul>
          </details>
        `}
      ${o && html`
        <p class="field-help">${t("skills.dirs")}</p>
        <ul class="skills-dirs field-help">
          ${o.dirs.map((d) => html`<li><code>${d.path}</code></li>`)}
        </ul>
      `}
      <${SkillPreview} />
    </section>
  `;
}
