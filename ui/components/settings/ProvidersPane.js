/**
 * Providers tab: the provider list (Demo first) with "Add provider" and a presets
 * menu, next to the selected provider's details. "Add provider" (or a preset) opens a
 * form in the details' place; nothing is stored until its Save. On phones the list
 * and the details (or the form) are two steps (list → details → back).
 */
import { signal } from "@preact/signals";
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import {
  defaultModel,
  presetList,
  providerForm,
  providers,
  selectedProviderId,
} from "../../state/settings.js";
import { IconBack, IconChevron, IconPlus } from "./controls.js";
import { ProviderDetail } from "./ProviderDetail.js";
import { ProviderForm } from "./ProviderForm.js";

const phoneQuery = typeof matchMedia === "function" ? matchMedia("(max-width: 767px)") : null;
const isPhone = signal(phoneQuery?.matches ?? false);
phoneQuery?.addEventListener("change", (e) => isPhone.value = e.matches);

/** @param {import("../../../protocol/index.ts").PublicProvider} p */
function statusOf(p) {
  if (!p.enabled) return { cls: "dot-off", label: t("settings.status.disabled") };
  if (p.readOnly || p.models.some((m) => m.enabled)) {
    return { cls: "dot-ok", label: t("settings.status.ready") };
  }
  return { cls: "dot-off", label: t("settings.status.noModels") };
}

function PresetMenu() {
  const [open, setOpen] = useState(false);
  const ref = useRef(/** @type {HTMLDivElement|null} */ (null));
  useEffect(() => {
    if (!open) return;
    const onDown = (/** @type {Event} */ e) => {
      if (!ref.current?.contains(/** @type {Node} */ (e.target))) setOpen(false);
    };
    const onKey = (/** @type {KeyboardEvent} */ e) => e.key === "Escape" && setOpen(false);
    document.addEventListener("pointerdown", onDown, true);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onDown, true);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  return html`
    <div class="menu-wrap" ref=${ref}>
      <button
        type="button"
        class="btn"
        data-testid="add-from-preset"
        aria-haspopup="menu"
        aria-expanded=${open ? "true" : "false"}
        onClick=${() => setOpen(!open)}
      >
        ${t("settings.presets")}
      </button>
      ${open &&
        html`
          <div class="menu" role="menu">
            ${presetList.value.map((p) =>
              html`
                <button
                  type="button"
                  role="menuitem"
                  class="menu-item"
                  data-testid=${`preset-${p.id}`}
                  onClick=${() => {
                    setOpen(false);
                    providerForm.value = { preset: p };
                  }}
                >
                  <span>${p.name}</span>
                  <span class="menu-sub">${p.baseUrl}</span>
                </button>
              `
            )}
          </div>
        `}
    </div>
  `;
}

function ProviderNav() {
  const sel = selectedProviderId.value;
  const def = defaultModel.value;
  return html`
    <nav class="provider-nav" aria-label=${t("settings.tab.providers")}>
      <ul class="provider-list" role="list">
        ${providers.value.map((p) => {
          const st = statusOf(p);
          const on = p.models.filter((m) => m.enabled).length;
          return html`
            <li key=${p.id}>
              <button
                type="button"
                class="provider-item"
                data-testid="provider-item"
                data-provider-id=${p.id}
                aria-current=${sel === p.id && !providerForm.value ? "true" : undefined}
                onClick=${() => {
                  providerForm.value = null;
                  selectedProviderId.value = p.id;
                }}
              >
                <span class=${`dot ${st.cls}`} role="img" aria-label=${st.label} title=${st
                  .label}></span>
                <span class="provider-item-main">
                  <span class="provider-item-name">${p.name}</span>
                  <span class="provider-item-sub">
                    ${p.readOnly ? t("settings.demoBadge") : t("settings.modelCount", {
                      on,
                      total: p.models.length,
                    })}
                    ${def?.providerId === p.id ? ` · ${t("settings.default.badge")}` : ""}
                  </span>
                </span>
                <span class="phone-only provider-item-go"><${IconChevron} size=${16} /></span>
              </button>
            </li>
          `;
        })}
      </ul>
      <div class="provider-add">
        <button type="button" class="btn btn-accent" data-testid="add-provider"
          aria-pressed=${providerForm.value && !providerForm.value.preset ? "true" : "false"}
          onClick=${() => providerForm.value = { preset: null }}>
          <${IconPlus} size=${16} /> ${t("settings.addProvider")}
        </button>
        <${PresetMenu} />
      </div>
    </nav>
  `;
}

export function ProvidersPane() {
  const phone = isPhone.value;
  const form = providerForm.value;
  let sel = providers.value.find((p) => p.id === selectedProviderId.value) ?? null;
  if (!sel && !phone) sel = providers.value[0] ?? null;
  return html`
    <div class="providers" data-step=${sel || form ? "detail" : "list"}>
      <${ProviderNav} />
      <div class="provider-detail">
        ${phone && (sel || form) &&
          html`
            <button
              type="button"
              class="btn btn-ghost back-to-list"
              data-testid="back-to-providers"
              onClick=${() => {
                providerForm.value = null;
                selectedProviderId.value = null;
              }}
            >
              <${IconBack} size=${16} /> ${t("settings.allProviders")}
            </button>
          `}
        ${form
          ? html`
            <${ProviderForm}
              key=${form.preset?.id ?? "blank"}
              preset=${form.preset}
              onDone=${() => providerForm.value = null}
            />
          `
          : sel && html`<${ProviderDetail} key=${sel.id} provider=${sel} />`}
      </div>
    </div>
  `;
}
