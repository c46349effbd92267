/**
 * Add / edit a model: id, display name, context window (presets 32K…2M or a number),
 * max output, vision and the price per million tokens (input, output, cache read, cache
 * write, in a currency). Empty means "not provided" (stored as unknown, never guessed);
 * the price is sent only when edited, so a new model keeps a built-in list price.
 *
 * @typedef {import("../../../protocol/index.ts").ModelInfo} ModelInfo
 * @typedef {import("../../../protocol/index.ts").PriceField} PriceField
 * @typedef {{currency: string, input: number|null, output: number|null,
 *   cacheRead: number|null, cacheWrite: number|null}} PriceInput
 */
import { useState } from "preact/hooks";
import {
  CONTEXT_PRESETS,
  CURRENCY_RE,
  parsePriceMicros,
  PRICE_FIELDS,
  priceText,
} from "../../../protocol/index.ts";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { compactTokens } from "./controls.js";

/** @param {string} s */
const parseCount = (s) => {
  const v = s.trim();
  if (!v) return null;
  const n = Number(v.replace(/[_,\s]/g, ""));
  return Number.isSafeInteger(n) && n > 0 ? n : NaN;
};

/**
 * @param {{model?: ModelInfo, testid: string, onCancel: () => void,
 *   onSave: (m: {id: string, name: string, contextWindow: number|null, maxOutput: number|null,
 *   vision: boolean|null, price?: PriceInput|null}) => Promise<string|null>}} props
 */
export function ModelForm({ model, testid, onCancel, onSave }) {
  const [id, setId] = useState(model?.id ?? "");
  const [name, setName] = useState(model && model.name !== model.id ? model.name : "");
  const [ctx, setCtx] = useState(model?.contextWindow ? String(model.contextWindow) : "");
  const [maxOut, setMaxOut] = useState(model?.maxOutput ? String(model.maxOutput) : "");
  const [vision, setVision] = useState(
    model?.vision === true ? "yes" : model?.vision === false ? "no" : "",
  );
  const [currency, setCurrency] = useState(model?.price?.currency ?? "USD");
  const [prices, setPrices] = useState(
    /** @type {Record<PriceField, string>} */ (Object.fromEntries(
      PRICE_FIELDS.map((f) => [f, priceText(model?.price?.[f] ?? null)]),
    )),
  );
  const [priceEdited, setPriceEdited] = useState(false);
  const [error, setError] = useState(/** @type {string|null} */ (null));
  const [busy, setBusy] = useState(false);
  const uid = `${testid}-${model?.id ?? "new"}`;

  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    const contextWindow = parseCount(ctx);
    const maxOutput = parseCount(maxOut);
    if (!id.trim()) return setError(t("settings.model.idRequired"));
    if (Number.isNaN(contextWindow) || Number.isNaN(maxOutput)) {
      return setError(t("settings.model.badNumber"));
    }
    const parsed = PRICE_FIELDS.map((f) => parsePriceMicros(prices[f]));
    if (parsed.some((v) => Number.isNaN(v))) return setError(t("settings.price.bad"));
    const cur = currency.trim().toUpperCase();
    if (!CURRENCY_RE.test(cur)) return setError(t("settings.price.badCurrency"));
    const [input, output, cacheRead, cacheWrite] = parsed;
    const price = parsed.every((v) => v === null)
      ? null
      : { currency: cur, input, output, cacheRead, cacheWrite };
    setBusy(true);
    const err = await onSave({
      id: id.trim(),
      name: name.trim(),
      contextWindow,
      maxOutput,
      vision: vision === "yes" ? true : vision === "no" ? false : null,
      ...(priceEdited ? { price } : {}),
    });
    setBusy(false);
    if (err) setError(err);
  };
  const input = (/** @type {(v: string) => void} */ set) => (/** @type {Event} */ e) =>
    set(/** @type {HTMLInputElement} */ (e.currentTarget).value);

  return html`
    <form class="model-form" data-testid=${testid} onSubmit=${submit}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => e.key === "Escape" && onCancel()}>
      <div class="form-grid">
        <div class="field">
          <label class="field-label" for=${`${uid}-id`}>${t("settings.model.id")}</label>
          <input id=${`${uid}-id`} class="input" data-testid="model-form-id" value=${id}
            spellcheck=${false} autocomplete="off" onInput=${input(setId)} />
        </div>
        <div class="field">
          <label class="field-label" for=${`${uid}-name`}>${t("settings.model.name")}</label>
          <input id=${`${uid}-name`} class="input" data-testid="model-form-name" value=${name}
            placeholder=${id} onInput=${input(setName)} />
        </div>
      </div>
      <div class="field">
        <label class="field-label" for=${`${uid}-ctx`}>${t("settings.model.context")}</label>
        <div class="pills" role="group" aria-label=${t("settings.model.context")}>
          ${CONTEXT_PRESETS.map((n) =>
            html`
              <button type="button" class="pill" data-testid="ctx-preset"
                aria-pressed=${parseCount(ctx) === n ? "true" : "false"}
                onClick=${() => setCtx(String(n))}>${compactTokens(n)}</button>
            `
          )}
          <button type="button" class="pill" aria-pressed=${ctx.trim() ? "false" : "true"}
            onClick=${() => setCtx("")}>${t("settings.notProvided")}</button>
        </div>
        <input id=${`${uid}-ctx`} class="input input-narrow" data-testid="model-form-context"
          inputmode="numeric" value=${ctx} placeholder=${t("settings.notProvided")}
          onInput=${input(setCtx)} />
      </div>
      <div class="form-grid">
        <div class="field">
          <label class="field-label" for=${`${uid}-max`}>${t("settings.model.maxOutput")}</label>
          <input id=${`${uid}-max`} class="input" data-testid="model-form-max" inputmode="numeric"
            value=${maxOut} placeholder=${t("settings.notProvided")} onInput=${input(setMaxOut)} />
        </div>
        <div class="field">
          <label class="field-label" for=${`${uid}-vision`}>${t("settings.model.vision")}</label>
          <select id=${`${uid}-vision`} class="input" data-testid="model-form-vision"
            value=${vision} onChange=${input(setVision)}>
            <option value="">${t("settings.notProvided")}</option>
            <option value="yes">${t("settings.model.visionYes")}</option>
            <option value="no">${t("settings.model.visionNo")}</option>
          </select>
        </div>
      </div>
      <fieldset class="field price-fields" data-testid="model-form-price">
        <legend class="field-label">${t("settings.price.title")}</legend>
        <div class="price-grid">
          <div class="field">
            <label class="field-label" for=${`${uid}-cur`}>${t("settings.price.currency")}</label>
            <input id=${`${uid}-cur`} class="input" data-testid="price-currency" value=${currency}
              maxlength="3" autocomplete="off" spellcheck=${false}
              onInput=${input((v) => {
                setCurrency(v);
                setPriceEdited(true);
              })} />
          </div>
          ${PRICE_FIELDS.map((f) =>
            html`
              <div class="field">
                <label class="field-label" for=${`${uid}-p-${f}`}>${t(
                  /** @type {const} */ (`settings.price.${f}`),
                )}</label>
                <input id=${`${uid}-p-${f}`} class="input" data-testid=${`price-${f}`}
                  inputmode="decimal" value=${prices[f]} placeholder=${t("stats.unknown")}
                  onInput=${input((v) => {
                    setPrices({ ...prices, [f]: v });
                    setPriceEdited(true);
                  })} />
              </div>
            `
          )}
        </div>
        <p class="field-help">${t("settings.price.help")}${model?.price &&
          ` (${t(/** @type {const} */ (`settings.price.source.${model.price.source}`))})`}</p>
      </fieldset>
      ${error && html`<p class="field-help field-error" role="alert">${error}</p>`}
      <div class="form-actions">
        <button type="button" class="btn" onClick=${onCancel}>${t("task.cancel")}</button>
        <button type="submit" class="btn btn-accent" data-testid="model-form-save"
          disabled=${busy}>${t("settings.save")}</button>
      </div>
    </form>
  `;
}
