/**
 * The composer's approval-mode menu (SPEC §4.4): plan / ask / edit / full, each with
 * an icon, a title and a one-line description; `full` in the warning colour.
 */
import { APPROVAL_MODES } from "../../server/protocol.ts";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { activeOptions, setOption } from "../state/run_actions.js";
import { Menu } from "./Menu.js";
import { MenuItem } from "./MenuItem.js";
import { IconAsk, IconBolt, IconChevronDown, IconEdit, IconPlan } from "./RunIcons.js";

const ICONS = { plan: IconPlan, ask: IconAsk, edit: IconEdit, full: IconBolt };

export function ApprovalMenu() {
  const opts = activeOptions.value;
  const mode = opts.approval;
  const Icon = ICONS[mode] ?? IconAsk;
  return html`
    <${Menu}
      testid="approval-select"
      title=${t("tools.approval")}
      value=${t(/** @type {any} */ (`approval.${mode}`))}
      tone=${mode === "full" ? "tool-warn" : ""}
      button=${html`
        <${Icon} size=${15} />
        <span class="tool-label" data-testid="approval-label">${t(
          /** @type {any} */ (`approval.${mode}`),
        )}</span>
        <${IconChevronDown} size=${13} />
      `}
    >
      ${(/** @type {() => void} */ close) =>
        APPROVAL_MODES.map((m) => {
          const ModeIcon = ICONS[m];
          return html`
            <${MenuItem}
              testid="approval-option"
              value=${m}
              checked=${m === mode}
              tone=${m === "full" ? "mi-warn" : ""}
              icon=${html`<${ModeIcon} size=${18} />`}
              title=${t(/** @type {any} */ (`approval.${m}`))}
              desc=${t(/** @type {any} */ (`approval.${m}.desc`))}
              onSelect=${() => {
                close();
                if (m !== mode || opts.inherited.approval) setOption("approval", m);
              }}
            />
          `;
        })}
    <//>
  `;
}
