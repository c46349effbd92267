/**
 * The "Add provider" form (Settings → Providers): name, wire format, base URL and API
 * key, prefilled from a preset when one was picked. Nothing is stored until Save;
 * Cancel (or Esc) leaves everything as it was. Problems are shown next to their field
 * (a blank name or a base URL that is not http(s) is caught here; anything else the
 * server refuses is shown as it said it).
 *
 * @typedef {import("../../../protocol/index.ts").ProviderPreset} ProviderPreset
 * @typedef {(typeof API_FORMATS)[number]} WireFormat
 */
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { API_FORMATS } from "../../../protocol/index.ts";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { createProvider } from "../../state/settings.js";

/**
 * Client-side checks; the server checks again (and more).
 * @param {{name: string, baseUrl: string}} v
 * @returns {{name?: string, baseUrl?: string}}
 */
export function providerFormErrors(v) {
  /** @type {{name?: string, baseUrl?: string}} */
  const errors = {};
  if (!v.name.trim()) errors.name = t("settings.form.nameRequired");
  const url = v.baseUrl.trim();
  if (url) {
    let ok = false;
    try {
      const u = new URL(url);
      ok = u.protocol === "http:" || u.protocol === "https:";
    } catch { /* not a URL */ }
    if (!ok) errors.baseUrl = t("settings.form.badUrl");
  }
  return errors;
}

/** Which field a server message is about (its messages name the field). @param {string} m */
const fieldOf = (m) =>
  /base URL/i.test(m)
    ? "baseUrl"
    : /API key/i.test(m)
    ? "apiKey"
    : /name/i.test(m)
    ? "name"
    : "form";

/**
 * @param {{preset: ProviderPreset|null, onDone: (id: string|null) => void}} props
 *   `onDone(id)` after Save (the new provider's id) or Cancel (null).
 */
export function ProviderForm({ preset, onDone }) {
  const [name, setName] = useState(preset?.name ?? "");
  const [format, setFormat] = useState(preset?.format ?? "openai-chat-completions");
  const [baseUrl, setBaseUrl] = useState(preset?.baseUrl ?? "");
  const [apiKey, setApiKey] = useState("");
  const [apiVersion, setApiVersion] = useState(preset?.options?.apiVersion ?? "");
  const [errors, setErrors] = useState(/** @type {Record<string, string>} */ ({}));
  const [busy, setBusy] = useState(false);
  const first = useRef(/** @type {HTMLInputElement|null} */ (null));
  // In the render that shows it (see useModalFocus.js): keys typed at once land here.
  useLayoutEffect(() => first.current?.focus(), []);

  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    const found = providerFormErrors({ name, baseUrl });
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    const r = await createProvider({
      ...(preset ? { preset: preset.id } : {}),
      name: name.trim(),
      format,
      baseUrl: baseUrl.trim(),
      apiKey: apiKey.trim(),
      ...(preset?.options?.apiVersion !== undefined
        ? { options: { apiVersion: apiVersion.trim() } }
        : {}),
    });
    setBusy(false);
    if (r.error !== null) return setErrors({ [fieldOf(r.error)]: r.error });
    onDone(r.id);
  };
  const input = (/** @type {(v: string) => void} */ set) => (/** @type {Event} */ e) =>
    set(/** @type {HTMLInputElement} */ (e.currentTarget).value);
  /** @param {string} key @param {string} testid */
  const err = (key, testid) =>
    errors[key] &&
    html`<p class="field-help field-error" role="alert" data-testid=${testid}>${errors[key]}</p>`;

  return html`
    <form
      class="provider-card provider-form"
      data-testid="provider-form"
      aria-label=${t("settings.form.title")}
      onSubmit=${submit}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
        if (e.key === "Escape" && !e.isComposing) {
          e.preventDefault();
          onDone(null);
        }
      }}
    >
      <div class="provider-card-head">
        <h2 class="provider-title">
          ${preset
            ? t("settings.form.titlePreset", { name: preset.name })
            : t("settings.form.title")}
        </h2>
      </div>
      <p class="settings-note">${t("settings.form.note")}</p>
      <div class="field">
        <label class="field-label" for="pf-name">${t("settings.name")}</label>
        <input id="pf-name" ref=${first} class=${`input${errors.name ? " input-error" : ""}`}
          data-testid="provider-form-name" value=${name} autocomplete="off"
          placeholder=${t("settings.form.namePlaceholder")}
          aria-invalid=${errors.name ? "true" : undefined} onInput=${input(setName)} />
        ${err("name", "provider-form-name-error")}
      </div>
      <div class="field">
        <label class="field-label" for="pf-format">${t("settings.format")}</label>
        <select id="pf-format" class="input" data-testid="provider-form-format" value=${format}
          onChange=${input((v) => setFormat(/** @type {WireFormat} */ (v)))}>
          ${API_FORMATS.map((f) =>
            html`<option value=${f}>${t(/** @type {const} */ (`format.${f}`))}</option>`
          )}
        </select>
        <p class="field-help">${t("settings.formatHelp")}</p>
      </div>
      <div class="field">
        <label class="field-label" for="pf-url">${t("settings.baseUrl")}</label>
        <input id="pf-url" class=${`input${errors.baseUrl ? " input-error" : ""}`}
          data-testid="provider-form-base-url" value=${baseUrl} spellcheck=${false}
          autocomplete="off" inputmode="url"
          placeholder=${preset?.baseUrlExample ?? "https://api.example.com"}
          aria-invalid=${errors.baseUrl ? "true" : undefined} onInput=${input(setBaseUrl)} />
        ${err("baseUrl", "provider-form-base-url-error") ||
          html`<p class="field-help">${
            t(preset?.id === "azure" ? "settings.baseUrlHelpAzure" : "settings.baseUrlHelp")
          }</p>`}
      </div>
      ${preset?.options?.apiVersion !== undefined &&
        html`
          <div class="field">
            <label class="field-label" for="pf-apiver">${t("settings.apiVersion")}</label>
            <input id="pf-apiver" class="input" data-testid="provider-form-api-version"
              value=${apiVersion} autocomplete="off" spellcheck=${false}
              onInput=${input(setApiVersion)} />
            <p class="field-help">${t("settings.apiVersionHelp")}</p>
          </div>
        `}
      <div class="field">
        <label class="field-label" for="pf-key">${t("settings.key.label")}</label>
        <input id="pf-key" type="password" class=${`input${errors.apiKey ? " input-error" : ""}`}
          data-testid="provider-form-key" value=${apiKey} autocomplete="new-password"
          spellcheck=${false} placeholder=${t("settings.key.none")}
          aria-invalid=${errors.apiKey ? "true" : undefined} onInput=${input(setApiKey)} />
        ${err("apiKey", "provider-form-key-error") ||
          html`<p class="field-help">${t("settings.key.help")}${preset?.keyUrl && " "}${
            preset?.keyUrl &&
            html`
              <a href=${preset.keyUrl} target="_blank" rel="noopener noreferrer">${t(
                "settings.key.get",
              )}</a>
            `
          }</p>`}
      </div>
      ${err("form", "provider-form-error")}
      <div class="form-actions">
        <button type="button" class="btn" data-testid="provider-form-cancel"
          onClick=${() => onDone(null)}>${t("task.cancel")}</button>
        <button type="submit" class="btn btn-accent" data-testid="provider-form-save"
          disabled=${busy}>${t("settings.save")}</button>
      </div>
    </form>
  `;
}
