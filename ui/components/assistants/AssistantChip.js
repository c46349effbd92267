/**
 * The assistant chip: the icon and name of the assistant the
 * shown task (or the draft) uses; its menu lists every assistant (the global default
 * marked) and "Manage assistants…". Choosing applies the assistant's bound model /
 * effort once; the composer's own choices win afterwards.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import {
  activeAssistant,
  activeAssistantId,
  assistantList,
  chooseAssistant,
} from "../../state/assistants.js";
import { openSettings, settingsTab } from "../../state/settings.js";
import { Menu } from "../Menu.js";
import { MenuItem } from "../MenuItem.js";
import { IconChevronDown } from "../RunIcons.js";
import { assistantDesc, assistantName } from "./labels.js";
import { AssistantIcon } from "./AssistantIcon.js";
import { phoneWide } from "../home/phone.js";

/**
 * In the header on wide screens, in the composer's toolbar on phones (the phone header
 * has no room for another chip).
 * @param {{place: "header"|"composer"}} props
 */
export function AssistantChip({ place }) {
  const list = assistantList.value;
  if (!list || (place === "composer") !== phoneWide.value) return null;
  const a = activeAssistant.value;
  const name = a ? assistantName(a) : t("assistants.missing", { id: activeAssistantId.value });
  return html`
    <${Menu}
      testid="assistant-chip"
      title=${t("assistants.chip")}
      value=${name}
      wrapClass="assistant-chip-wrap"
      tone=${`assistant-chip${a ? "" : " tool-warn"}`}
      button=${html`
        <${AssistantIcon} a=${a} size=${15} />
        <span class="tool-label assistant-chip-name" data-testid="assistant-chip-name">${name}</span>
        <${IconChevronDown} size=${13} />
      `}
    >
      ${(/** @type {(focus?: boolean) => void} */ close) =>
        html`
          ${list.assistants.map((x) =>
            html`
              <${MenuItem}
                checked=${x.id === activeAssistantId.value}
                title=${assistantName(x)}
                desc=${assistantDesc(x)}
                icon=${html`<${AssistantIcon} a=${x} />`}
                badges=${x.id === list.defaultId &&
                  html`<span class="badge" data-testid="assistant-default-badge">${
                    t(
                      "assistants.default",
                    )
                  }</span>`}
                testid="assistant-option"
                value=${x.id}
                onSelect=${() => {
                  close();
                  void chooseAssistant(x.id);
                }}
              />
            `
          )}
          <${MenuItem}
            role="menuitem"
            checked=${false}
            title=${t("assistants.manage")}
            testid="assistant-manage"
            onSelect=${() => {
              close(false);
              settingsTab.value = "assistants";
              openSettings();
            }}
          />
        `}
    <//>
  `;
}
