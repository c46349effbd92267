/**
 * Installing a skill into ReinAgent's own folder (on once installed): a folder path on
 * the server, or a zip chosen here (uploaded, then unpacked and checked by the server).
 */
import { useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { installSkillFolder, installSkillZip } from "../../state/skills.js";

export function SkillInstall() {
  const [path, setPath] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState(/** @type {{name?: string, error?: string}|null} */ (null));
  const file = useRef(/** @type {HTMLInputElement|null} */ (null));
  /** @param {() => Promise<{name?: string, error?: string}>} fn */
  const run = async (fn) => {
    setBusy(true);
    setResult(null);
    const r = await fn();
    setBusy(false);
    setResult(r);
    if (r.name) setPath("");
  };
  return html`
    <div class="skill-install" data-testid="skill-install">
      <label class="field-label" for="skill-folder">${t("skills.install.folder")}</label>
      <div class="skill-install-row">
        <input
          id="skill-folder"
          class="input mono"
          data-testid="skill-folder-path"
          placeholder=${t("skills.install.folderPlaceholder")}
          value=${path}
          spellcheck=${false}
          onInput=${(/** @type {Event} */ e) =>
            setPath(/** @type {HTMLInputElement} */ (e.currentTarget).value)}
        />
        <button
          type="button"
          class="btn"
          data-testid="skill-install-folder"
          disabled=${busy || !path.trim()}
          onClick=${() => run(() => installSkillFolder(path.trim()))}
        >${t("skills.install.folderButton")}</button>
      </div>
      <div class="skill-install-row">
        <input
          ref=${file}
          type="file"
          accept=".zip,application/zip"
          class="sr-only"
          data-testid="skill-zip-input"
          tabindex="-1"
          onChange=${(/** @type {Event} */ e) => {
            const input = /** @type {HTMLInputElement} */ (e.currentTarget);
            const f = input.files?.[0];
            input.value = "";
            if (f) void run(() => installSkillZip(f));
          }}
        />
        <button
          type="button"
          class="btn"
          data-testid="skill-install-zip"
          disabled=${busy}
          onClick=${() => file.current?.click()}
        >${t("skills.install.zip")}</button>
        <span class="field-help">${t("skills.install.zipHelp")}</span>
      </div>
      ${busy && html`<p class="field-help" role="status">${t("skills.install.busy")}</p>`}
      ${result?.name &&
        html`<p class="field-help" role="status" data-testid="skill-install-done">
          ${t("skills.install.done", { name: result.name })}
        </p>`}
      ${result?.error &&
        html`<p class="field-help field-error" role="alert" data-testid="skill-install-error">
          ${result.error}
        </p>`}
    </div>
  `;
}
