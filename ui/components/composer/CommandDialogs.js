/**
 * Dialogs of slash commands: `/help` (every command of the view's workspace with its
 * description and origin, the files that could not be used, how @ mentions and custom
 * commands work) and the confirmation `/clear` asks before it is sent.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import {
  clearAsk,
  commandList,
  describe,
  helpOpen,
  menuCommands,
  scopeArgs,
} from "../../state/commands.js";
import { sendComposer } from "../../state/composer_send.js";
import { composerFocus } from "../../state/ui.js";
import { Dialog } from "../interact/Dialog.js";

function HelpDialog() {
  const close = () => {
    helpOpen.value = false;
    composerFocus.value++;
  };
  const fresh = commandList.value.key === JSON.stringify(scopeArgs.value);
  const problems = fresh ? commandList.value.problems : [];
  return html`
    <${Dialog}
      title=${t("cmd.help.title")}
      testid="help-dialog"
      onClose=${close}
      footer=${html`<button type="button" class="ap-btn" onClick=${close}>${
        t("cmd.help.close")
      }</button>`}
    >
      <p class="help-intro">${t("cmd.help.intro")}</p>
      <dl class="help-list">
        ${menuCommands.value.map((c) =>
          html`
            <div class="help-row" key=${c.name} data-testid="help-command">
              <dt>
                <code>/${c.name}</code>${c.argHint && html`
                  <span class="suggest-hint">${c.argHint}</span>
                `}
                <span class="suggest-badge">${t(
                  /** @type {any} */ (`cmd.source.${c.source}`),
                )}</span>
              </dt>
              <dd>${describe(c)}</dd>
            </div>
          `
        )}
      </dl>
      ${problems.length > 0 && html`
        <h3 class="help-sub">${t("cmd.problems")}</h3>
        <ul class="help-problems">
          ${problems.map((p) => html`<li><code>${p.path}</code> ${p.message}</li>`)}
        </ul>
      `}
      <p class="help-note">${t("cmd.help.mentions")}</p>
      <p class="help-note">${t("cmd.help.custom")}</p>
    <//>
  `;
}

function ClearDialog() {
  const cancel = () => {
    clearAsk.value = false;
    composerFocus.value++;
  };
  const confirm = () => {
    clearAsk.value = false;
    sendComposer({ confirmed: true });
  };
  return html`
    <${Dialog}
      title=${t("cmd.clear.title")}
      testid="clear-dialog"
      onClose=${cancel}
      footer=${html`
        <button type="button" class="ap-btn" data-testid="clear-cancel" onClick=${cancel}>
          ${t("cmd.clear.cancel")}
        </button>
        <button type="button" class="ap-btn ap-reject" data-testid="clear-confirm" onClick=${confirm}>
          ${t("cmd.clear.confirm")}
        </button>
      `}
    >
      <p>${t("cmd.clear.body")}</p>
      <//>
  `;
}

export function CommandDialogs() {
  return html`${helpOpen.value && html`<${HelpDialog} />`}${
    clearAsk.value && html`<${ClearDialog} />`
  }`;
}
