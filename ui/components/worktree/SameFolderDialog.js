/**
 * Asked before a new task shares its folder with a task still at work there: give it a
 * branch of its own (a git worktree), share the folder anyway, or not send yet.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { Dialog } from "../interact/Dialog.js";
import { sameFolderAsk, sendComposer } from "../../state/composer_send.js";
import { draftWorktree } from "../../state/projects.js";

export function SameFolderDialog() {
  const folder = sameFolderAsk.value;
  if (!folder) return null;
  const close = () => sameFolderAsk.value = null;
  const send = (/** @type {boolean} */ own) => {
    close();
    draftWorktree.value = own;
    sendComposer({ sameFolder: true });
  };
  return html`
    <${Dialog}
      title=${t("worktree.sameFolderTitle")}
      testid="same-folder-dialog"
      onClose=${close}
      footer=${html`
        <button type="button" class="btn" onClick=${close}>${t("task.cancel")}</button>
        <button type="button" class="btn" data-testid="same-folder-share"
          onClick=${() => send(false)}>${t("worktree.sameFolderShare")}</button>
        <button type="button" class="btn btn-accent" data-testid="same-folder-own"
          onClick=${() => send(true)}>${t("worktree.sameFolderOwn")}</button>
      `}
    >
      <p>${t("worktree.sameFolderText", { folder })}</p>
      <//>
  `;
}
