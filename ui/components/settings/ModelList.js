/**
 * A provider's models: Fetch models (the real error when it fails), Add model, a
 * filter for long lists, "Enable all" for the disabled ones shown (fetched models
 * start disabled; one request), and one row per model with its switch, metadata ("not
 * provided" when unknown), Test (latency or the real error), Set as default, Edit and
 * Delete.
 *
 * @typedef {import("../../../protocol/index.ts").PublicProvider} PublicProvider
 * @typedef {import("../../../protocol/index.ts").ModelInfo} ModelInfo
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import {
  addModel,
  defaultModel,
  deleteModel,
  enableModels,
  fetchModels,
  fetchStates,
  modelTests,
  setDefaultModel,
  testKey,
  testModel,
  updateModel,
} from "../../state/settings.js";
import {
  compactTokens,
  IconEdit,
  IconPlug,
  IconPlus,
  IconRefresh,
  IconStar,
  IconTrash,
  InlineConfirm,
  Switch,
} from "./controls.js";
import { ModelForm } from "./ModelForm.js";
import { formatMoney } from "../../../protocol/index.ts";
import { lang } from "../../state/prefs.js";

const FILTER_FROM = 8;

/**
 * The model's price per million tokens (input · output; the cache rates and where the
 * price came from in the tooltip), or "price unknown".
 * @param {{model: ModelInfo}} props
 */
function PriceMeta({ model: m }) {
  const p = m.price;
  if (!p || (p.input === null && p.output === null)) {
    return html`<span class="meta" data-testid="meta-price">${t("cost.unknown")}</span>`;
  }
  /** @param {number|null} micros */
  const money = (micros) =>
    micros === null ? t("cost.unknown") : formatMoney(micros * 1000, p.currency, lang.value);
  const title = [
    `${t("settings.price.cacheRead")}: ${money(p.cacheRead)}`,
    `${t("settings.price.cacheWrite")}: ${money(p.cacheWrite)}`,
    t(/** @type {const} */ (`settings.price.source.${p.source}`)),
  ].join(" · ");
  return html`<span class="meta" data-testid="meta-price" title=${title}>${
    t("settings.price.short", { input: money(p.input), output: money(p.output) })
  }</span>`;
}

/** @param {{model: ModelInfo}} props */
function Meta({ model: m }) {
  const na = t("settings.notProvided");
  return html`
    <span class="model-meta" data-testid="model-meta">
      <span class="meta" data-testid="meta-context">
        ${t("settings.meta.context")}: ${m.contextWindow ? compactTokens(m.contextWindow) : na}
      </span>
      <span class="meta" data-testid="meta-max">
        ${t("settings.meta.maxOutput")}: ${m.maxOutput ? compactTokens(m.maxOutput) : na}
      </span>
      <span class=${`meta${m.vision ? " meta-on" : ""}`} data-testid="meta-vision">
        ${t("settings.meta.vision")}: ${m.vision === null
          ? na
          : m.vision
          ? t("settings.model.visionYes")
          : t("settings.model.visionNo")}
      </span>
      <${PriceMeta} model=${m} />
      ${m.effortLevels &&
        html`<span class="meta">${t("settings.meta.effort")}: ${
          m.effortLevels.map((l) => t(/** @type {const} */ (`effort.${l}`))).join(" · ")
        }</span>`}
    </span>
  `;
}

/** @param {{provider: PublicProvider, model: ModelInfo}} props */
function TestResult({ provider, model }) {
  const r = modelTests.value.get(testKey(provider.id, model.id));
  if (!r) return null;
  if ("running" in r) {
    return html`<p class="test-result" data-testid="test-result" data-state="running">
      <span class="spinner" aria-hidden="true"></span> ${t("settings.test.running")}
    </p>`;
  }
  if (r.ok) {
    return html`<p class="test-result test-ok" data-testid="test-result" data-state="ok">
      ${t("settings.test.ok", { ms: r.latencyMs })}${r.reply ? ` · “${r.reply}”` : ""}
    </p>`;
  }
  const text = "error" in r
    ? `[${r.error.category}] ${r.error.message}${r.error.url ? ` (${r.error.url})` : ""}`
    : r.message;
  return html`
    <p class="test-result test-fail" data-testid="test-result" data-state="error"
      role="alert">${text}${"error" in r
        ? html`<span class="test-hint">${r.error.hint}</span>`
        : ""}</p>
  `;
}

/** @param {{provider: PublicProvider, model: ModelInfo}} props */
function ModelRow({ provider: p, model: m }) {
  const [mode, setMode] = useState(/** @type {"view"|"edit"|"confirm"} */ ("view"));
  const [error, setError] = useState(/** @type {string|null} */ (null));
  const d = defaultModel.value;
  const isDefault = d?.providerId === p.id && d.modelId === m.id;
  const running = (() => {
    const r = modelTests.value.get(testKey(p.id, m.id));
    return Boolean(r && "running" in r);
  })();
  if (mode === "edit") {
    return html`
      <li class="model-row editing" data-testid="model-row" data-model-id=${m.id}>
        <${ModelForm} model=${m} testid="model-edit-form" onCancel=${() => setMode("view")}
          onSave=${async (/** @type {Record<string, unknown>} */ v) => {
            const err = await updateModel(p.id, m.id, v);
            if (!err) setMode("view");
            return err;
          }} />
      </li>
    `;
  }
  return html`
    <li class=${`model-row${m.enabled ? "" : " off"}`} data-testid="model-row" data-model-id=${m
      .id}>
      ${!p.readOnly &&
        html`
          <${Switch} checked=${m.enabled} label=${t("settings.model.enabled")}
            testid="model-enabled" onChange=${(/** @type {boolean} */ v) =>
              updateModel(p.id, m.id, { enabled: v }).then(setError)} />
        `}
      <div class="model-main">
        <div class="model-name">
          <span class="model-title">${m.name}</span>
          ${m.name !== m.id && html`<code class="model-id">${m.id}</code>`}
          ${isDefault &&
            html`<span class="badge badge-accent" data-testid="default-badge">${
              t(
                "settings.default.badge",
              )
            }</span>`}
        </div>
        <${Meta} model=${m} />
        <${TestResult} provider=${p} model=${m} />
        ${error && html`<p class="field-help field-error" role="alert">${error}</p>`}
        ${mode === "confirm" &&
          html`
            <${InlineConfirm} text=${t("settings.model.deleteConfirm", { id: m.id })}
              confirmLabel=${t("task.delete")} testid="confirm-delete-model"
              onCancel=${() => setMode("view")}
              onConfirm=${async () => {
                setMode("view");
                setError(await deleteModel(p.id, m.id));
              }} />
          `}
      </div>
      <div class="model-actions">
        <button type="button" class="btn btn-small" data-testid="model-test" disabled=${running}
          onClick=${() => testModel(p.id, m.id)}>
          <${IconPlug} size=${15} /> ${t("settings.test.button")}
        </button>
        <button type="button" class=${`icon-btn${isDefault ? " on" : ""}`}
          data-testid="model-set-default" aria-pressed=${isDefault ? "true" : "false"}
          disabled=${isDefault || !m.enabled || !p.enabled}
          aria-label=${t("settings.default.set")} title=${isDefault
            ? t("settings.default.badge")
            : m.enabled && p.enabled
            ? t("settings.default.set")
            : t("settings.default.enableFirst")}
          onClick=${() => setDefaultModel(p.id, m.id).then(setError)}>
          <${IconStar} size=${16} />
        </button>
        ${!p.readOnly &&
          html`
            <button type="button" class="icon-btn" data-testid="model-edit"
              aria-label=${t("settings.model.edit")} title=${t("settings.model.edit")}
              onClick=${() => setMode("edit")}><${IconEdit} size=${16} /></button>
            <button type="button" class="icon-btn" data-testid="model-delete"
              aria-label=${t("settings.model.delete")} title=${t("settings.model.delete")}
              onClick=${() => setMode("confirm")}><${IconTrash} size=${16} /></button>
          `}
      </div>
    </li>
  `;
}

/** @param {{provider: PublicProvider}} props */
export function ModelList({ provider: p }) {
  const [adding, setAdding] = useState(false);
  const [filter, setFilter] = useState("");
  const [bulk, setBulk] = useState(
    /** @type {{busy: boolean, error: string|null}} */ ({
      busy: false,
      error: null,
    }),
  );
  const fs = fetchStates.value.get(p.id);
  const q = filter.trim().toLowerCase();
  const shown = q
    ? p.models.filter((m) => m.id.toLowerCase().includes(q) || m.name.toLowerCase().includes(q))
    : p.models;
  const off = shown.filter((m) => !m.enabled).map((m) => m.id);
  const enableAll = async () => {
    setBulk({ busy: true, error: null });
    setBulk({ busy: false, error: await enableModels(p.id, off) });
  };
  return html`
    <section class="models" data-testid="model-list">
      <div class="models-head">
        <h3 class="models-title">${t("settings.models")} <span class="count">${p.models
          .length}</span></h3>
        ${!p.readOnly &&
          html`
            <button type="button" class="btn btn-small" data-testid="fetch-models"
              disabled=${fs && "running" in fs} onClick=${() => fetchModels(p.id)}>
              ${fs && "running" in fs
                ? html`<span class="spinner" aria-hidden="true"></span>`
                : html`<${IconRefresh} size=${15} />`} ${t("settings.fetch.button")}
            </button>
            <button type="button" class="btn btn-small" data-testid="add-model"
              onClick=${() => setAdding(true)}><${IconPlus} size=${15} /> ${t(
                "settings.model.add",
              )}</button>
            ${off.length >= 2 &&
              html`
                <button type="button" class="btn btn-small" data-testid="enable-all-models"
                  disabled=${bulk.busy} title=${t("settings.models.enableAllTitle", {
                    n: off.length,
                  })} onClick=${enableAll}>
                  ${t("settings.models.enableAll", { n: off.length })}
                </button>
              `}
          `}
      </div>
      ${bulk.error &&
        html`<p class="fetch-status fetch-error" role="alert" data-testid="enable-all-error">${bulk.error}</p>`}
      ${fs && "error" in fs &&
        html`<p class="fetch-status fetch-error" role="alert" data-testid="fetch-error">${fs.error}</p>`}
      ${fs && "added" in fs &&
        html`<p class="fetch-status" data-testid="fetch-status">
          ${t("settings.fetch.done", { added: fs.added, total: fs.total })}
        </p>`}
      ${adding &&
        html`
          <${ModelForm} testid="model-add-form" onCancel=${() => setAdding(false)}
            onSave=${async (
              /** @type {{id: string, name: string, contextWindow: number|null,
               *   maxOutput: number|null, vision: boolean|null}} */ v,
            ) => {
              const err = await addModel(p.id, v);
              if (!err) setAdding(false);
              return err;
            }} />
        `}
      ${p.models.length >= FILTER_FROM &&
        html`
          <input class="input model-filter" type="search" data-testid="model-filter"
            placeholder=${t("settings.model.filter")} aria-label=${t("settings.model.filter")}
            value=${filter} onInput=${(/** @type {Event} */ e) =>
              setFilter(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
        `}
      ${p.models.length === 0
        ? html`<p class="settings-note" data-testid="no-models">${t("settings.model.none")}</p>`
        : html`<ul class="model-list" role="list">
          ${shown.map((m) => html`<${ModelRow} key=${m.id} provider=${p} model=${m} />`)}
        </ul>`}
    </section>
  `;
}
