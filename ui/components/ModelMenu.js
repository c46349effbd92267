/**
 * The composer's model selector: enabled models of enabled providers, grouped by
 * provider (Demo labelled "Demo"), with context-window and vision badges. Changes the
 * task's model only (or the draft's), never the system default. The button names the
 * provider and the model; when the composer is narrow the provider goes first, then
 * the model name is cut with "…" but keeps several characters (never one letter); the
 * full name is in its tooltip and, on phones, in the sheet.
 *
 * @typedef {import("../state/options.js").ModelInfo} ModelInfo
 * @typedef {import("../../protocol/index.ts").PublicProvider} PublicProvider
 */
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import {
  ensureModels,
  modelGroups,
  modelsStatus,
  providerList,
  sysDefaults,
} from "../state/models.js";
import { DEMO_PROVIDER_ID, findModel, formatTokens, sameModel } from "../state/options.js";
import { activeOptions, setOption } from "../state/run_actions.js";
import { Menu } from "./Menu.js";
import { MenuItem } from "./MenuItem.js";
import { IconChevronDown, IconCube, IconEye } from "./RunIcons.js";

/**
 * @param {PublicProvider} p
 * @param {ModelInfo} m
 */
const modelLabel = (p, m) => p.id === DEMO_PROVIDER_ID ? t("demo.badge") : m.name || m.id;

/** @param {{model: ModelInfo}} props */
function Badges({ model }) {
  const ctx = formatTokens(model.contextWindow);
  return html`
    ${ctx && html`<span class="tbadge" title=${t("tools.context", { n: ctx })}>${ctx}</span>`}
    ${model.vision === true &&
      html`<span class="tbadge tbadge-vision" title=${t("tools.vision")}>
        <${IconEye} size=${12} /><span class="sr-only">${t("tools.vision")}</span>
      </span>`}
  `;
}

export function ModelMenu() {
  const opts = activeOptions.value;
  const found = findModel(providerList.value, opts.model);
  const status = modelsStatus.value;
  const groups = modelGroups.value;
  const usable = !!found?.usable;
  // Until the defaults arrive, an unset model is not known to be the Demo one.
  const pending = sysDefaults.value === null && opts.inherited.model;
  const provider = found && found.provider.id !== DEMO_PROVIDER_ID ? found.provider.name : "";
  const label = pending
    ? "…"
    : found
    ? modelLabel(found.provider, found.model)
    : opts.isDemo
    ? t("demo.badge")
    : status === "ready"
    ? t("tools.unavailable", { id: opts.model.modelId })
    : opts.model.modelId;
  return html`
    <${Menu}
      testid="model-select"
      title=${t("tools.model")}
      value=${provider ? t("tools.modelFull", { provider, model: label }) : label}
      tone=${status === "ready" && !usable && !opts.isDemo ? "tool-warn" : ""}
      wrapClass="model-wrap"
      wrapStyle=${`--name-ch: ${[...label].length}`}
      onOpen=${ensureModels}
      button=${html`
        <${IconCube} size=${15} />
        ${provider &&
          html`<span class="model-provider" data-testid="model-provider">${provider}</span>`}
        <span class="tool-label model-name" data-testid="model-label">${label}</span>
        <${IconChevronDown} size=${13} />
      `}
    >
      ${(/** @type {() => void} */ close) =>
        groups.length === 0
          ? html`<p class="opt-note">
            ${
            status === "error"
              ? t("tools.loadFailed")
              : status === "ready"
              ? t("tools.noModels")
              : t("tools.loading")
          }
          </p>`
          : groups.map((g) =>
            html`
              <div class="opt-group" role="group" aria-label=${g.provider.name}>
                <div class="opt-group-label">
                  ${g.provider.id === DEMO_PROVIDER_ID ? t("demo.badge") : g.provider.name}
                </div>
                ${g.models.map((m) => {
                  const ref = { providerId: g.provider.id, modelId: m.id };
                  return html`
                    <${MenuItem}
                      testid="model-option"
                      value=${`${g.provider.id}/${m.id}`}
                      checked=${sameModel(ref, opts.model)}
                      title=${modelLabel(g.provider, m)}
                      desc=${g.provider.id !== DEMO_PROVIDER_ID && m.name && m.name !== m.id
                        ? m.id
                        : undefined}
                      badges=${html`<${Badges} model=${m} />`}
                      onSelect=${() => {
                        close();
                        if (!sameModel(ref, opts.model) || opts.inherited.model) {
                          setOption("model", ref);
                        }
                      }}
                    />
                  `;
                })}
              </div>
            `
          )}
    <//>
  `;
}
