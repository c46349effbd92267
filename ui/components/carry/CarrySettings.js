/**
 * Settings → Import & backup: import a ReinAgent export file, import the sessions of
 * Claude Code, Codex, OpenCode and pi found on the server's machine (with their
 * counts), export every task, and the configuration backup (download, restore from a
 * file, WebDAV upload / restore). The outcome of the last action is shown below it.
 *
 * @typedef {import("../../state/carry.js").CarryOutcome} CarryOutcome
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import {
  carryBusy,
  carryOutcome,
  carrySources,
  downloadBackup,
  exportTasks,
  importExportFile,
  importFromSource,
  loadSources,
  restoreBackupFile,
  webdav,
} from "../../state/carry.js";
import { formatSize } from "../../state/attachments.js";
import { IconDownload, IconUpload } from "./icons.js";

/**
 * A button that opens a file picker and hands the chosen file on.
 * @param {{testid: string, label: string, onFile: (f: File) => void, disabled: boolean}} p */
function FileButton({ testid, label, onFile, disabled }) {
  const input = useRef(/** @type {HTMLInputElement|null} */ (null));
  return html`
    <input
      ref=${input}
      type="file"
      accept=".json,application/json"
      class="sr-only"
      tabindex="-1"
      data-testid=${`${testid}-input`}
      onChange=${(/** @type {Event} */ e) => {
        const el = /** @type {HTMLInputElement} */ (e.currentTarget);
        const file = el.files?.[0];
        el.value = "";
        if (file) onFile(file);
      }}
    />
    <button
      type="button"
      class="btn"
      data-testid=${testid}
      disabled=${disabled}
      onClick=${() => input.current?.click()}
    >
      <${IconUpload} size=${16} /> ${label}
    </button>
  `;
}

/** @param {{outcome: CarryOutcome}} p */
function Outcome({ outcome }) {
  if (outcome.kind === "error") {
    const message = t(outcome.area === "import" ? "carry.importFailed" : "carry.restoreFailed", {
      message: outcome.message,
    });
    return html`
      <p class="field-help field-error carry-outcome" role="alert"
        data-testid="carry-outcome">${message}</p>
    `;
  }
  if (outcome.kind === "uploaded") {
    return html`<p class="field-help carry-outcome" role="status" data-testid="carry-outcome">${
      t("carry.uploaded", { size: formatSize(outcome.bytes) })
    }</p>`;
  }
  const r = outcome.report;
  const summary = outcome.kind === "import"
    ? t("carry.imported", {
      label: outcome.label,
      created: outcome.report.tasksCreated,
      updated: outcome.report.tasksUpdated,
      skipped: outcome.report.tasksSkipped,
      entries: outcome.report.entriesAdded,
      attachments: outcome.report.attachmentsAdded,
    })
    : t("carry.restored", {
      settings: outcome.report.settings,
      providers: outcome.report.providers,
      mcp: outcome.report.mcpServers,
      projects: outcome.report.projects,
    });
  const notes = "problems" in r ? r.problems : r.skipped;
  const more = "moreProblems" in r ? r.moreProblems : 0;
  return html`
    <div class="carry-outcome" role="status" data-testid="carry-outcome">
      <p class="field-help">${summary}</p>
      ${notes.length > 0 &&
        html`
          <ul class="carry-problems" data-testid="carry-problems">
            ${notes.slice(0, 8).map((p) => html`<li>${p}</li>`)}
            ${(notes.length > 8 || more > 0) &&
              html`<li>${t("carry.moreProblems", { n: notes.length - 8 + more })}</li>`}
          </ul>
        `}
      ${"savedBefore" in r &&
        html`<p class="field-help">${t("carry.savedBefore", { path: r.savedBefore })}</p>`}
    </div>
  `;
}

function SourceList() {
  const list = carrySources.value;
  if (list === null) return html`<p class="field-help">${t("carry.looking")}</p>`;
  return html`
    <ul class="carry-sources" data-testid="carry-sources">
      ${list.map((s) =>
        html`
          <li class="carry-source" data-source=${s.source}>
            <span class="carry-source-text">
              <span class="carry-source-name">${s.label}</span>
              <span class="carry-source-path" title=${s.path}>${s.path}</span>
            </span>
            <span class="badge" data-testid=${`carry-count-${s.source}`}>
              ${s.exists ? tn("carry.sessions", s.sessions) : t("carry.notFound")}
            </span>
            <button
              type="button"
              class="btn btn-small"
              data-testid=${`carry-from-${s.source}`}
              disabled=${carryBusy.value !== "" || s.sessions === 0}
              onClick=${() => importFromSource(s)}
            >
              ${carryBusy.value === s.source ? t("carry.importing") : t("carry.import")}
            </button>
          </li>
        `
      )}
    </ul>
  `;
}

/** @param {{includeKeys: boolean}} p the backup's "include keys" choice */
function WebdavForm({ includeKeys }) {
  const [form, setF] = useState({ url: "", username: "", password: "" });
  const f = { ...form, includeKeys };
  const busy = carryBusy.value !== "";
  /** @param {"url"|"username"|"password"} k @param {string} label @param {string} type */
  const field = (k, label, type = "text") =>
    html`
      <div class="field">
        <label class="field-label" for=${`webdav-${k}`}>${label}</label>
        <input
          id=${`webdav-${k}`}
          class="input"
          type=${type}
          autocomplete="off"
          data-testid=${`webdav-${k}`}
          value=${f[k]}
          placeholder=${k === "url" ? "https://dav.example.com/reinagent-backup.json" : ""}
          onInput=${(/** @type {Event} */ e) =>
            setF({ ...form, [k]: /** @type {HTMLInputElement} */ (e.currentTarget).value })}
        />
      </div>
    `;
  const okUrl = /^https?:\/\/\S+$/.test(f.url.trim());
  return html`
    <div class="carry-webdav">
      ${field("url", t("carry.webdavUrl"))}
      <div class="carry-webdav-auth">
        ${field("username", t("carry.webdavUser"))} ${field(
          "password",
          t("carry.webdavPassword"),
          "password",
        )}
      </div>
      <div class="carry-buttons">
        <button type="button" class="btn" data-testid="webdav-upload" disabled=${busy || !okUrl}
          onClick=${() => webdav("upload", f)}>
          <${IconUpload} size=${16} /> ${t("carry.webdavUpload")}
        </button>
        <button type="button" class="btn" data-testid="webdav-restore" disabled=${busy || !okUrl}
          onClick=${() => webdav("restore", f)}>
          <${IconDownload} size=${16} /> ${t("carry.webdavRestore")}
        </button>
      </div>
    </div>
  `;
}

export function CarrySettings() {
  const [includeKeys, setIncludeKeys] = useState(false);
  useEffect(() => {
    carryOutcome.value = null;
    loadSources();
  }, []);
  const busy = carryBusy.value !== "";
  const outcome = carryOutcome.value;
  return html`
    <div class="settings-section carry-settings" data-testid="carry-settings">
      <fieldset class="settings-group">
        <legend class="settings-group-title">${t("carry.importTitle")}</legend>
        <p class="field-help">${t("carry.importHelp")}</p>
        <div class="carry-buttons">
          <${FileButton}
            testid="carry-import-file"
            label=${carryBusy.value === "file" ? t("carry.importing") : t("carry.importFile")}
            disabled=${busy}
            onFile=${importExportFile}
          />
        </div>
        <h3 class="carry-subtitle">${t("carry.fromTools")}</h3>
        <p class="field-help">${t("carry.fromToolsHelp")}</p>
        <${SourceList} />
      </fieldset>
      ${outcome?.area === "import" && html`<${Outcome} outcome=${outcome} />`}
      <fieldset class="settings-group">
        <legend class="settings-group-title">${t("carry.exportTitle")}</legend>
        <p class="field-help">${t("carry.exportHelp")}</p>
        <div class="carry-buttons">
          <button type="button" class="btn" data-testid="carry-export-all-json"
            onClick=${() => exportTasks({ all: true }, "json")}>
            <${IconDownload} size=${16} /> ${t("carry.exportAllJson")}
          </button>
          <button type="button" class="btn" data-testid="carry-export-all-md"
            onClick=${() => exportTasks({ all: true }, "md")}>
            <${IconDownload} size=${16} /> ${t("carry.exportAllMd")}
          </button>
        </div>
      </fieldset>
      <fieldset class="settings-group">
        <legend class="settings-group-title">${t("carry.backupTitle")}</legend>
        <p class="field-help">${t("carry.backupHelp")}</p>
        <label class="field-help carry-check">
          <input
            type="checkbox"
            data-testid="backup-include-keys"
            checked=${includeKeys}
            onChange=${(/** @type {Event} */ e) =>
              setIncludeKeys(/** @type {HTMLInputElement} */ (e.currentTarget).checked)}
          /> ${t("carry.includeKeys")}
        </label>
        <div class="carry-buttons">
          <button type="button" class="btn" data-testid="backup-download"
            onClick=${() => downloadBackup(includeKeys)}>
            <${IconDownload} size=${16} /> ${t("carry.backupDownload")}
          </button>
          <${FileButton}
            testid="backup-restore-file"
            label=${carryBusy.value === "restore" ? t("carry.restoring") : t("carry.restoreFile")}
            disabled=${busy}
            onFile=${restoreBackupFile}
          />
        </div>
        <h3 class="carry-subtitle">WebDAV</h3>
        <${WebdavForm} includeKeys=${includeKeys} />
      </fieldset>
      ${outcome?.area === "backup" && html`<${Outcome} outcome=${outcome} />`}
    </div>
  `;
}
