/**
 * General settings: appearance on this device (language, theme, text size, message
 * theme — kept in the browser), then the system default model (used by new tasks),
 * default reasoning effort, the compaction model, default approval mode and the shell sandbox. Changing them
 * never changes an existing task.
 *
 * @typedef {import("../../state/prefs.js").Lang} Lang
 * @typedef {import("../../state/prefs.js").ThemePref} ThemePref
 * @typedef {import("../../state/prefs.js").MessageTheme} MessageTheme
 * @typedef {import("../../../protocol/index.ts").Effort} Effort
 * @typedef {import("../../../protocol/index.ts").ApprovalMode} ApprovalMode
 * @typedef {import("../../../protocol/constants.ts").SandboxLevelName} SandboxLevelName
 */
import { ProxySettings } from "../net/ProxySettings.js";
import { APPROVAL_MODES, EFFORT_LEVELS, SANDBOX_LEVELS } from "../../../protocol/index.ts";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import {
  defaultApproval,
  defaultEffort,
  defaultModel,
  providers,
  sandboxLevel,
  sandboxNetwork,
  setDefaultModel,
  setGeneral,
  usableModels,
} from "../../state/settings.js";
import { notifyError } from "../../state/ui.js";
import { CommandSafety } from "./CommandSafety.js";
import { PermissionRules } from "./PermissionRules.js";
import { NotifySettings } from "../notify/NotifySettings.js";
import { CompactModelField } from "./CompactModelField.js";
import {
  FONT_SCALES,
  fontScale,
  lang,
  LANGS,
  MESSAGE_THEMES,
  messageTheme,
  setFontScale,
  setLang,
  setMessageTheme,
  setThemePref,
  themePref,
  THEMES,
} from "../../state/prefs.js";

const LANG_NAMES = { "en-US": "English", "zh-CN": "简体中文" };

/** @param {Event} e */
const valueOf = (e) => /** @type {HTMLSelectElement} */ (e.currentTarget).value;

/** Language, theme, text size and message theme (per device). */
function Appearance() {
  return html`
    <fieldset class="settings-group" data-testid="appearance-settings">
      <legend class="settings-group-title">${t("settings.appearance")}</legend>
      <div class="field">
        <label class="field-label" for="pref-lang">${t("settings.language.label")}</label>
        <select
          id="pref-lang"
          class="input"
          data-testid="pref-lang"
          value=${lang.value}
          onChange=${(/** @type {Event} */ e) => setLang(/** @type {Lang} */ (valueOf(e)))}
        >
          ${LANGS.map((l) => html`<option value=${l}>${LANG_NAMES[l]}</option>`)}
        </select>
      </div>
      <div class="field">
        <label class="field-label" for="pref-theme">${t("settings.theme.label")}</label>
        <select
          id="pref-theme"
          class="input"
          data-testid="pref-theme"
          value=${themePref.value}
          onChange=${(/** @type {Event} */ e) =>
            setThemePref(/** @type {ThemePref} */ (valueOf(e)))}
        >
          ${THEMES.map((m) =>
            html`<option value=${m}>${t(/** @type {const} */ (`settings.theme.${m}`))}</option>`
          )}
        </select>
      </div>
      <div class="field">
        <label class="field-label" for="pref-font">${t("settings.font.label")}</label>
        <select
          id="pref-font"
          class="input"
          data-testid="pref-font"
          value=${String(fontScale.value)}
          onChange=${(/** @type {Event} */ e) => setFontScale(Number(valueOf(e)))}
        >
          ${FONT_SCALES.map((f) =>
            html`<option value=${String(f)}>${Math.round(f * 100)}%</option>`
          )}
        </select>
      </div>
      <div class="field">
        <label class="field-label" for="pref-message-theme">${t(
          "settings.messageTheme.label",
        )}</label>
        <select
          id="pref-message-theme"
          class="input"
          data-testid="pref-message-theme"
          value=${messageTheme.value}
          onChange=${(/** @type {Event} */ e) =>
            setMessageTheme(/** @type {MessageTheme} */ (valueOf(e)))}
        >
          ${MESSAGE_THEMES.map((m) =>
            html`<option value=${m}>${
              t(/** @type {const} */ (`settings.messageTheme.${m}`))
            }</option>`
          )}
        </select>
        <p class="field-help">${t("settings.messageTheme.help")}</p>
      </div>
    </fieldset>
  `;
}

/** Label of the current default, or a warning when it cannot be used. */
function defaultStatus() {
  const d = defaultModel.value;
  if (!d) return { ok: true, text: t("settings.default.none") };
  const p = providers.value.find((x) => x.id === d.providerId);
  const m = p?.models.find((x) => x.id === d.modelId);
  if (!p || !m) {
    return {
      ok: false,
      text: t("settings.default.missing", { providerId: d.providerId, modelId: d.modelId }),
    };
  }
  if (!p.enabled || !m.enabled) {
    return { ok: false, text: t("settings.default.disabled", { name: `${p.name} / ${m.name}` }) };
  }
  return { ok: true, text: `${p.name} / ${m.name}` };
}

export function GeneralSettings() {
  const d = defaultModel.value;
  const value = d ? `${d.providerId}\n${d.modelId}` : "";
  const status = defaultStatus();
  return html`
    <div class="settings-section" data-testid="general-settings">
      <${Appearance} />
      <${NotifySettings} />
      <${ProxySettings} />
      <div class="field">
        <label class="field-label" for="default-model">${t("settings.default.model")}</label>
        <select
          id="default-model"
          class="input"
          data-testid="default-model"
          value=${value}
          onChange=${async (/** @type {Event} */ e) => {
            const v = /** @type {HTMLSelectElement} */ (e.currentTarget).value;
            if (!v) return;
            const [pid, mid] = v.split("\n");
            const err = await setDefaultModel(pid, mid);
            if (err) notifyError("error.settings", new Error(err));
          }}
        >
          ${!d && html`<option value="">${t("settings.default.none")}</option>`}
          ${d && !status.ok && html`<option value=${value}>${status.text}</option>`}
          ${usableModels.value.map((g) =>
            html`
              <optgroup label=${g.provider.name}>
                ${g.models.map((m) =>
                  html`<option value=${`${g.provider.id}\n${m.id}`}>${g.provider.name} · ${m.name}</option>`
                )}
              </optgroup>
            `
          )}
        </select>
        <p class=${`field-help${status.ok ? "" : " field-error"}`} data-testid="default-status">
          ${status.ok ? t("settings.default.help") : status.text}
        </p>
      </div>
      <div class="field">
        <label class="field-label" for="default-effort">${t("settings.effort.label")}</label>
        <select
          id="default-effort"
          class="input"
          data-testid="default-effort"
          value=${defaultEffort.value}
          onChange=${(/** @type {Event} */ e) =>
            setGeneral({ defaultEffort: /** @type {Effort} */ (valueOf(e)) })}
        >
          ${EFFORT_LEVELS.map((l) =>
            html`<option value=${l}>${t(/** @type {const} */ (`effort.${l}`))}</option>`
          )}
        </select>
        <p class="field-help">${t("settings.effort.help")}</p>
      </div>
      <${CompactModelField} />
      <div class="field">
        <label class="field-label" for="default-approval">${t("settings.approval.label")}</label>
        <select
          id="default-approval"
          class="input"
          data-testid="default-approval"
          value=${defaultApproval.value}
          onChange=${(/** @type {Event} */ e) =>
            setGeneral({
              defaultApproval: /** @type {ApprovalMode} */ (valueOf(e)),
            })}
        >
          ${APPROVAL_MODES.map((m) =>
            html`<option value=${m}>${t(/** @type {const} */ (`approval.${m}`))}</option>`
          )}
        </select>
        <p class=${`field-help${defaultApproval.value === "full" ? " field-warn" : ""}`}>
          ${t(/** @type {const} */ (`approval.${defaultApproval.value}.desc`))}
        </p>
      </div>
      <div class="field">
        <label class="field-label" for="sandbox-level">${t("settings.sandbox.label")}</label>
        <select
          id="sandbox-level"
          class="input"
          data-testid="sandbox-level"
          value=${sandboxLevel.value}
          onChange=${(/** @type {Event} */ e) =>
            setGeneral({ sandboxLevel: /** @type {SandboxLevelName} */ (valueOf(e)) })}
        >
          ${SANDBOX_LEVELS.map((l) =>
            html`<option value=${l}>${t(/** @type {const} */ (`settings.sandbox.${l}`))}</option>`
          )}
        </select>
        <label class="field-help">
          <input
            type="checkbox"
            data-testid="sandbox-network"
            checked=${sandboxNetwork.value}
            onChange=${(/** @type {Event} */ e) =>
              setGeneral({
                sandboxNetwork: /** @type {HTMLInputElement} */ (e.currentTarget).checked,
              })}
          /> ${t("settings.sandbox.network")}
        </label>
        <p class=${`field-help${sandboxLevel.value === "off" ? " field-warn" : ""}`}>${t(
          "settings.sandbox.help",
        )}</p>
      </div>
      <${CommandSafety} />
      <${PermissionRules} />
    </div>
  `;
}
