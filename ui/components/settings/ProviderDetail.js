/**
 * One provider's settings: enabled switch, delete (inline confirm), name, wire format,
 * base URL and API key (masked; show/hide reveals only what was typed on this page),
 * then its models. Fields save on blur or Enter; Esc reverts. The Demo is read-only.
 *
 * @typedef {import("../../../protocol/index.ts").PublicProvider} PublicProvider
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { API_FORMATS } from "../../../protocol/index.ts";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { deleteProvider, presetList, typedKeys, updateProvider } from "../../state/settings.js";
import { IconEye, IconEyeOff, IconTrash, InlineConfirm, Switch } from "./controls.js";
import { ModelList } from "./ModelList.js";

/**
 * A text field that saves on blur/Enter and shows the server's error under it.
 * @param {{id: string, label: string, value: string, testid: string, placeholder?: string,
 *   type?: string, help?: any, onSave: (v: string) => Promise<string|null>,
 *   after?: any, autocomplete?: string}} props
 */
function TextField(props) {
  const [draft, setDraft] = useState(props.value);
  const [error, setError] = useState(/** @type {string|null} */ (null));
  /** Bumped by a successful save: the field shows the stored (normalised) value again. */
  const [saves, setSaves] = useState(0);
  const focused = useRef(false);
  useEffect(() => {
    if (!focused.current) setDraft(props.value);
  }, [props.value, saves]);
  const save = async () => {
    if (draft === props.value) return setError(null);
    const err = await props.onSave(draft);
    setError(err);
    if (!err) setSaves((n) => n + 1);
  };
  return html`
    <div class="field">
      <label class="field-label" for=${props.id}>${props.label}</label>
      <div class="field-row">
        <input
          id=${props.id}
          class=${`input${error ? " input-error" : ""}`}
          data-testid=${props.testid}
          type=${props.type ?? "text"}
          value=${draft}
          placeholder=${props.placeholder}
          autocomplete=${props.autocomplete ?? "off"}
          spellcheck=${false}
          aria-invalid=${error ? "true" : undefined}
          onFocus=${() => focused.current = true}
          onInput=${(/** @type {Event} */ e) =>
            setDraft(/** @type {HTMLInputElement} */ (e.currentTarget).value)}
          onBlur=${() => {
            focused.current = false;
            save();
          }}
          onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
            if (e.isComposing || e.keyCode === 229) return;
            if (e.key === "Enter") /** @type {HTMLInputElement} */ (e.currentTarget).blur();
            if (e.key === "Escape") {
              setDraft(props.value);
              setError(null);
            }
          }}
        />
        ${props.after}
      </div>
      ${error
        ? html`<p class="field-help field-error" role="alert" data-testid=${`${props.testid}-error`}>
          ${error}
        </p>`
        : props.help && html`<p class="field-help">${props.help}</p>`}
    </div>
  `;
}

/** @param {{provider: PublicProvider}} props */
function KeyField({ provider }) {
  const [shown, setShown] = useState(false);
  const [, rerender] = useState(0);
  const typed = typedKeys.get(provider.id) ?? "";
  const preset = presetList.value.find((p) =>
    (p.id === provider.preset || p.baseUrl === provider.baseUrl) && p.keyUrl
  );
  const toggle = html`
    <button
      type="button"
      class="icon-btn"
      data-testid="toggle-key"
      aria-pressed=${shown ? "true" : "false"}
      aria-label=${shown ? t("settings.key.hide") : t("settings.key.show")}
      title=${typed ? (shown ? t("settings.key.hide") : t("settings.key.show")) : t(
        "settings.key.showNote",
      )}
      onClick=${() => setShown(!shown)}
    >
      ${shown ? html`<${IconEyeOff} />` : html`<${IconEye} />`}
    </button>
    ${provider.hasKey &&
      html`
        <button type="button" class="btn btn-small" data-testid="clear-key"
          onClick=${async () => {
            typedKeys.delete(provider.id);
            rerender((n) => n + 1);
            await updateProvider(provider.id, { apiKey: "" });
          }}>${t("settings.key.clear")}</button>
      `}
  `;
  return html`
    <${TextField}
      id=${`key-${provider.id}`}
      label=${t("settings.key.label")}
      testid="provider-key"
      type=${shown ? "text" : "password"}
      autocomplete="new-password"
      value=${typed}
      placeholder=${provider.hasKey
        ? t("settings.key.saved", { masked: provider.apiKeyMasked })
        : t("settings.key.none")}
      onSave=${async (/** @type {string} */ v) => {
        const key = v.trim();
        if (!key) return null; // an emptied field keeps the stored key; "Clear key" removes it
        const err = await updateProvider(provider.id, { apiKey: key });
        if (!err) {
          typedKeys.set(provider.id, key);
          // The field shows `typed`: render it now. When the providers event (hasKey)
          // came before this reply, nothing else would, and the field emptied.
          rerender((n) => n + 1);
        }
        return err;
      }}
      after=${toggle}
      help=${html`
        ${t("settings.key.help")} ${preset?.keyUrl &&
          html`<a href=${preset.keyUrl} target="_blank" rel="noopener noreferrer">${
            t(
              "settings.key.get",
            )
          }</a>`}
      `}
    />
  `;
}

/** @param {{provider: PublicProvider}} props */
export function ProviderDetail({ provider: p }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState(/** @type {string|null} */ (null));
  const save = (/** @type {Record<string, unknown>} */ patch) => updateProvider(p.id, patch);
  return html`
    <div class="provider-card" data-testid="provider-detail" data-provider-id=${p.id}>
      <div class="provider-card-head">
        <h2 class="provider-title" data-testid="provider-title">${p.name}</h2>
        ${p.readOnly && html`<span class="badge">${t("settings.demoBadge")}</span>`}
        <span class="grow"></span>
        ${!p.readOnly && !confirming &&
          html`
            <button
              type="button"
              class="icon-btn"
              data-testid="delete-provider"
              aria-label=${t("settings.deleteProvider")}
              title=${t("settings.deleteProvider")}
              onClick=${() => setConfirming(true)}
            >
              <${IconTrash} />
            </button>
          `}
        ${!p.readOnly &&
          html`
            <${Switch} checked=${p.enabled} label=${t("settings.enabled")}
              testid="provider-enabled" onChange=${(/** @type {boolean} */ v) =>
                save({ enabled: v }).then(setError)} />
          `}
      </div>
      ${confirming &&
        html`
          <${InlineConfirm}
            text=${t("settings.deleteProviderConfirm", { name: p.name })}
            confirmLabel=${t("task.delete")}
            testid="confirm-delete-provider"
            onCancel=${() => setConfirming(false)}
            onConfirm=${async () => {
              setConfirming(false);
              setError(await deleteProvider(p.id));
            }}
          />
        `}
      ${error && html`<p class="field-help field-error" role="alert">${error}</p>`}
      ${p.readOnly ? html`<p class="settings-note">${t("settings.demoNote")}</p>` : html`
        <${TextField} id=${`name-${p.id}`} label=${t("settings.name")} testid="provider-name"
          value=${p.name} onSave=${(/** @type {string} */ v) => save({ name: v })} />
        <div class="field">
          <label class="field-label" for=${`format-${p.id}`}>${t("settings.format")}</label>
          <select id=${`format-${p.id}`} class="input" data-testid="provider-format"
            value=${p.format} onChange=${(/** @type {Event} */ e) =>
              save({ format: /** @type {HTMLSelectElement} */ (e.currentTarget).value })
                .then(setError)}>
            ${API_FORMATS.map((f) =>
              html`<option value=${f}>${t(/** @type {const} */ (`format.${f}`))}</option>`
            )}
          </select>
          <p class="field-help">${t("settings.formatHelp")}</p>
        </div>
        <${TextField} id=${`url-${p.id}`} label=${t("settings.baseUrl")}
          testid="provider-base-url" value=${p.baseUrl} placeholder="https://api.example.com"
          help=${t(p.preset === "azure" ? "settings.baseUrlHelpAzure" : "settings.baseUrlHelp")}
          onSave=${(/** @type {string} */ v) => save({ baseUrl: v })} />
        ${p.preset === "azure" &&
          html`
            <${TextField} id=${`apiver-${p.id}`} label=${t("settings.apiVersion")}
              testid="provider-api-version" value=${p.options?.apiVersion ?? ""}
              help=${t("settings.apiVersionHelp")}
              onSave=${(/** @type {string} */ v) => save({ options: { apiVersion: v } })} />
          `}
        <${KeyField} provider=${p} />
      `}
      <${ModelList} provider=${p} />
    </div>
  `;
}
