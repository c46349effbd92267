/**
 * The composer's reasoning-effort menu: exactly the levels the model declares (else
 * the general Default, Low, Medium, High), each with its step budget ("∞"
 * in full access mode), and a note saying what the number means and whether the
 * levels are the model's own. The button shows the level the run will really use.
 */
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { providerList } from "../state/models.js";
import { findModel, offeredLevels, stepsFor } from "../state/options.js";
import { activeOptions, setOption } from "../state/run_actions.js";
import { Menu } from "./Menu.js";
import { MenuItem } from "./MenuItem.js";
import { IconChevronDown, IconGauge } from "./RunIcons.js";

/** @param {number} n */
const stepsText = (n) => Number.isFinite(n) ? String(n) : "∞";
/** @param {number} n */
const stepsTitle = (n) => Number.isFinite(n) ? t("tools.steps", { n }) : t("tools.stepsUnlimited");

export function EffortMenu() {
  const opts = activeOptions.value;
  const model = findModel(providerList.value, opts.model)?.model;
  const levels = offeredLevels(model);
  const declared = !!model?.effortLevels?.length;
  const steps = stepsFor(opts.effort, opts.approval);
  return html`
    <${Menu}
      testid="effort-select"
      title=${t("tools.effort")}
      value=${`${t(/** @type {const} */ (`effort.${opts.effort}`))} · ${stepsTitle(steps)}`}
      button=${html`
        <${IconGauge} size=${15} />
        <span class="tool-label" data-testid="effort-label">${t(
          /** @type {const} */ (`effort.${opts.effort}`),
        )}</span>
        <span class="tbadge tbadge-steps" data-testid="steps-badge" title=${stepsTitle(
          steps,
        )}>${stepsText(steps)}</span>
        <${IconChevronDown} size=${13} />
      `}
    >
      ${(/** @type {() => void} */ close) =>
        html`
          <div class="opt-group">
            ${levels.map((level) => {
              const n = stepsFor(level, opts.approval);
              return html`
                <${MenuItem}
                  testid="effort-option"
                  value=${level}
                  checked=${level === opts.effort}
                  title=${t(/** @type {const} */ (`effort.${level}`))}
                  badges=${html`<span class="tbadge tbadge-steps" title=${stepsTitle(n)}>${
                    stepsText(n)
                  }</span>`}
                  onSelect=${() => {
                    close();
                    if (level !== opts.effort || opts.inherited.effort) {
                      setOption("effort", level);
                    }
                  }}
                />
              `;
            })}
          </div>
          <div class="opt-foot" data-testid="effort-note">
            <p>
              ${t("effort.stepsNote")} ${opts.approval === "full" ? t("effort.stepsFull") : ""}
            </p>
            <p data-testid="effort-source">
              ${declared ? t("effort.declared") : t("effort.undeclared")}
            </p>
          </div>
        `}
    <//>
  `;
}
