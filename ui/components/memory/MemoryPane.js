/**
 * Settings → Memory: what the agent remembers across tasks — the global memories or one
 * project's, with search, accept (for proposals the agent made), edit, delete, and
 * "Delete all" behind a confirmation (files go to the memory trash). Files that are
 * not valid memories are listed in a banner and left alone. The switch turns post-turn
 * extraction on (off by default).
 *
 * @typedef {import("../../../protocol/index.ts").MemorySummary} MemorySummary
 */
import { useEffect, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import {
  acceptMemory,
  deleteMemory,
  editMemory,
  loadMemory,
  memoryDraft,
  memoryHits,
  memoryProject,
  memoryQuery,
  memoryScope,
  memoryView,
  searchMemory,
  setExtraction,
  showMemoryTab,
  wipeMemory,
} from "../../state/memory.js";
import { currentTask } from "../../state/tasks.js";
import { projects } from "../../state/projects.js";
import { IconEdit, IconPlus, IconTrash, InlineConfirm, Switch } from "../settings/controls.js";
import { MemoryForm } from "./MemoryForm.js";

/** " · who wrote it · date" after the id. @param {MemorySummary} m */
const metaLine = (m) =>
  ` · ${t(/** @type {const} */ (`memory.source.${m.source}`))} · ${m.updatedAt.slice(0, 10)}`;

/** @param {{m: MemorySummary, snippet?: string}} props */
function MemoryRow({ m, snippet }) {
  const [confirm, setConfirm] = useState(false);
  const [err, setErr] = useState(/** @type {string|null} */ (null));
  return html`
    <li class="memory-row" data-testid="memory-row" data-id=${m.id}
      data-unreviewed=${m.unreviewed ? "true" : "false"}>
      <div class="memory-row-main">
        <div class="memory-row-title">
          <span class="memory-title">${m.title}</span>
          <span class="badge">${t(/** @type {const} */ (`memory.type.${m.type}`))}</span>
          ${m.unreviewed &&
            html`
              <span class="badge memory-unreviewed" data-testid="memory-unreviewed"
                title=${t("memory.unreviewedHelp")}>${t("memory.unreviewed")}</span>
            `}
        </div>
        ${m.description && html`<div class="memory-desc">${m.description}</div>`}
        <div class="memory-preview">${snippet || m.preview}</div>
        <div class="memory-meta">
          <span class="mono">${m.id}</span>${metaLine(m)}
        </div>
        ${err && html`<p class="field-help field-error" role="alert">${err}</p>`}
      </div>
      <div class="memory-row-actions">
        ${m.unreviewed &&
          html`
            <button type="button" class="btn btn-small btn-accent" data-testid="memory-accept"
              onClick=${async () => setErr(await acceptMemory(m.id))}>${t("memory.accept")}</button>
          `}
        <button type="button" class="icon-btn" data-testid="memory-edit" title=${t("memory.edit")}
          aria-label=${t("memory.edit")} onClick=${() =>
            editMemory(m.id)}><${IconEdit} size=${16} /></button>
        ${confirm
          ? html`
            <${InlineConfirm} text=${t("memory.deleteConfirm")} confirmLabel=${t("memory.delete")}
              testid="memory-delete-confirm" onCancel=${() => setConfirm(false)}
              onConfirm=${async () => {
                setConfirm(false);
                setErr(await deleteMemory(m.id));
              }} />
          `
          : html`
            <button type="button" class="icon-btn" data-testid="memory-delete"
              title=${t("memory.delete")} aria-label=${t("memory.delete")}
              onClick=${() => setConfirm(true)}><${IconTrash} size=${16} /></button>
          `}
      </div>
    </li>
  `;
}

function WipeButton() {
  const [confirm, setConfirm] = useState(false);
  const [err, setErr] = useState(/** @type {string|null} */ (null));
  const v = memoryView.value;
  const n = (v?.items.length ?? 0) +
    (v?.problems.filter((p) => p.file !== "settings.json").length ?? 0);
  if (!v || n === 0) return null;
  return html`
    <div class="memory-wipe">
      ${confirm
        ? html`
          <${InlineConfirm} text=${tn("memory.wipeConfirm", n)} confirmLabel=${t("memory.wipe")}
            testid="memory-wipe-confirm" onCancel=${() => setConfirm(false)}
            onConfirm=${async () => {
              setConfirm(false);
              setErr(await wipeMemory());
            }} />
        `
        : html`
          <button type="button" class="btn btn-danger" data-testid="memory-wipe"
            onClick=${() => setConfirm(true)}>${t("memory.wipe")}</button>
        `}
      ${err && html`<p class="field-help field-error" role="alert">${err}</p>`}
    </div>
  `;
}

function ProjectPicker() {
  const list = projects.value;
  return html`
    <div class="field memory-project">
      <label class="field-label" for="memory-project">${t("memory.project")}</label>
      <select id="memory-project" class="input" data-testid="memory-project"
        value=${memoryProject.value ?? ""}
        onChange=${(/** @type {Event} */ e) => {
          memoryProject.value = /** @type {HTMLSelectElement} */ (e.currentTarget).value || null;
          void loadMemory();
        }}>
        <option value="">${t("memory.defaultProject")}</option>
        ${list.map((p) => html`<option value=${p.path} title=${p.path}>${p.name}</option>`)}
      </select>
    </div>
  `;
}

export function MemoryPane() {
  const scope = memoryScope.value;
  useEffect(() => void loadMemory(), [scope]);
  const v = memoryView.value;
  const shown = v && v.scope === scope ? v : null;
  const hits = memoryHits.value;
  const draft = memoryDraft.value;
  const rows = hits
    ? hits.map((h) => html`<${MemoryRow} key=${h.item.id} m=${h.item} snippet=${h.snippet} />`)
    : (shown?.items ?? []).map((m) => html`<${MemoryRow} key=${m.id} m=${m} />`);
  const pending = shown?.items.filter((m) => m.unreviewed).length ?? 0;
  return html`
    <section class="settings-section memory-pane" data-testid="memory-pane"
      aria-labelledby="memory-title">
      <div class="mcp-head">
        <h2 id="memory-title" class="provider-title">${t("memory.title")}</h2>
        <span class="grow"></span>
        <button type="button" class="btn btn-accent" data-testid="memory-add"
          onClick=${() =>
            memoryDraft.value = {
              id: null,
              title: "",
              description: "",
              type: scope === "global" ? "user" : "project",
              body: "",
            }}><${IconPlus} size=${16} /> ${t("memory.add")}</button>
      </div>
      <p class="settings-note">${t("memory.intro")}</p>
      <div class="seg" role="tablist" aria-label=${t("memory.title")}>
        ${(/** @type {const} */ (["global", "project"])).map((id) =>
          html`
            <button type="button" role="tab" class="seg-btn" data-testid=${`memory-tab-${id}`}
              aria-selected=${scope === id ? "true" : "false"}
              onClick=${() => showMemoryTab(id, currentTask.value?.projectPath ?? null)}>${t(
                /** @type {const} */ (`memory.tab.${id}`),
              )}</button>
          `
        )}
      </div>
      ${scope === "project" && html`<${ProjectPicker} />`}
      ${draft && html`<${MemoryForm} key=${draft.id ?? "new"} draft=${draft} />`}
      ${shown && shown.problems.length > 0 &&
        html`
          <div class="banner banner-danger" role="alert" data-testid="memory-problems">
            <p>${t("memory.problems")}</p>
            ${shown.problems.map((p) =>
              html`<p class="banner-sub"><span class="mono">${p.file}</span>: ${p.error}</p>`
            )}
          </div>
        `}
      ${pending > 0 &&
        html`<p class="banner banner-warn" data-testid="memory-pending">${
          tn("memory.pending", pending)
        }</p>`}
      ${(shown || scope === "global") &&
        html`
          <input type="search" class="input memory-search" data-testid="memory-search"
            placeholder=${t("memory.search")} aria-label=${t("memory.search")} value=${memoryQuery
              .value}
            maxlength="200" onInput=${(/** @type {Event} */ e) =>
              searchMemory(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
        `}
      ${!shown
        ? scope === "global" && html`<p class="settings-note">${t("settings.loading")}</p>`
        : rows.length === 0
        ? html`<p class="settings-note" data-testid="memory-empty">${
          hits ? t("memory.noMatch") : t("memory.empty")
        }</p>`
        : html`<ul class="memory-list" data-testid="memory-list">${rows}</ul>`}
      ${shown &&
        html`
          <div class="memory-foot">
            <p class="field-help">${t("memory.folder", { path: shown.dir })}</p>
            <${WipeButton} />
          </div>
        `}
      <div class="memory-extraction-box">
        <div class="memory-extraction">
          <${Switch} checked=${v?.settings.extraction ?? false} label=${t("memory.extraction")}
            testid="memory-extraction" onChange=${(/** @type {boolean} */ x) =>
              void setExtraction(x)} />
          <span>${t("memory.extraction")}</span>
        </div>
        <p class="field-help">${t("memory.extractionHelp")}</p>
      </div>
    </section>
  `;
}
