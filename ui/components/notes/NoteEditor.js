/**
 * The open note: its name (renamed on Enter or leaving the field), the save status
 * (saved / saving / error / conflict), Edit / Preview / Split (the preview is the app's
 * Markdown renderer), the AI assist actions with Undo, and Delete (to the trash). A
 * conflict (the file changed on disk) is shown with the two ways out; nothing is
 * overwritten unless the user picks "Keep mine".
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { ASSIST_ACTIONS, NOTES_LIMITS } from "../../../protocol/index.ts";
import {
  assist,
  assistBusy,
  assistError,
  assistUndo,
  deleteNote,
  editNote,
  flushSave,
  keepMine,
  noteText,
  openNote,
  reloadFromDisk,
  renameNote,
  saveError,
  saveState,
  undoAssist,
} from "../../state/notes.js";
import { Markdown } from "../Markdown.js";
import { NoteToolbar } from "./NoteToolbar.js";
import { IconSparkles, IconUndo } from "../skills/SkillIcons.js";
import { IconBack, IconTrash, InlineConfirm } from "../settings/controls.js";

const MODES = /** @type {const} */ (["edit", "preview", "split"]);

/** @param {{onBack: () => void}} props */
export function NoteEditor({ onBack }) {
  const doc = openNote.value;
  const [mode, setMode] = useState(/** @type {typeof MODES[number]} */ ("edit"));
  const [name, setName] = useState(doc?.name ?? "");
  const [nameErr, setNameErr] = useState(/** @type {string|null} */ (null));
  const [confirm, setConfirm] = useState(false);
  const area = useRef(/** @type {HTMLTextAreaElement|null} */ (null));
  useEffect(() => {
    setName(doc?.name ?? "");
    setNameErr(null);
  }, [doc?.name]);
  if (!doc) return html`<p class="settings-note notes-none">${t("notes.pick")}</p>`;
  const state = saveState.value;
  const busy = assistBusy.value;
  const commitName = async () => {
    const to = name.trim();
    if (!to || to === doc.name) return setName(doc.name);
    setNameErr(await renameNote(to));
  };
  return html`
    <div class="notes-editor" data-testid="notes-editor-pane">
      <div class="notes-editor-head">
        <button type="button" class="icon-btn notes-back" data-testid="notes-back"
          title=${t("notes.back")} aria-label=${t("notes.back")}
          onClick=${async () => {
            await flushSave();
            onBack();
          }}><${IconBack} size=${16} /></button>
        <input class="input notes-name" data-testid="notes-name" value=${name}
          aria-label=${t("notes.name")} maxlength=${NOTES_LIMITS.nameChars}
          onInput=${(/** @type {Event} */ e) =>
            setName(/** @type {HTMLInputElement} */ (e.currentTarget).value)}
          onBlur=${commitName}
          onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
            if (e.key === "Enter") /** @type {HTMLInputElement} */ (e.currentTarget).blur();
          }} />
        <span class="badge notes-status" data-testid="notes-status" data-state=${state}
          title=${saveError.value ?? ""}>${t(/** @type {const} */ (`notes.state.${state}`))}</span>
        ${confirm
          ? html`
            <${InlineConfirm} text=${t("notes.deleteConfirm")} confirmLabel=${t("notes.delete")}
              testid="notes-delete-confirm" onCancel=${() => setConfirm(false)}
              onConfirm=${() => {
                setConfirm(false);
                void deleteNote(doc.name);
              }} />
          `
          : html`
            <button type="button" class="icon-btn" data-testid="notes-delete"
              title=${t("notes.delete")} aria-label=${t("notes.delete")}
              onClick=${() => setConfirm(true)}><${IconTrash} size=${16} /></button>
          `}
      </div>
      ${nameErr && html`<p class="field-help field-error" role="alert">${nameErr}</p>`}
      ${state === "conflict" &&
        html`
          <div class="banner banner-warn" role="alert" data-testid="notes-conflict">
            <p>${t("notes.conflict")}</p>
            <p class="banner-sub">${saveError.value}</p>
            <div class="form-actions">
              <button type="button" class="btn" data-testid="notes-reload"
                onClick=${reloadFromDisk}>${t("notes.reload")}</button>
              <button type="button" class="btn btn-danger" data-testid="notes-keep-mine"
                onClick=${keepMine}>${t("notes.keepMine")}</button>
            </div>
          </div>
        `}
      ${state === "error" &&
        html`<p class="field-help field-error" role="alert" data-testid="notes-save-error">${
          t("notes.saveError", { message: saveError.value ?? "" })
        }</p>`}
      <div class="notes-tools">
        <div class="seg" role="tablist" aria-label=${t("notes.mode")}>
          ${MODES.map((m) =>
            html`
              <button type="button" role="tab" class="seg-btn" data-testid=${`notes-mode-${m}`}
                aria-selected=${mode === m ? "true" : "false"} onClick=${() => setMode(m)}>${t(
                  /** @type {const} */ (`notes.mode.${m}`),
                )}</button>
            `
          )}
        </div>
        <div class="notes-assist">
          ${ASSIST_ACTIONS.map((a) =>
            html`
              <button type="button" class="btn btn-small" data-testid=${`notes-assist-${a}`}
                disabled=${busy !== null || !noteText.value.trim()}
                title=${t(/** @type {const} */ (`notes.assist.${a}Help`))}
                onClick=${() => void assist(a)}><${IconSparkles} size=${14} /> ${busy === a
                  ? "…"
                  : ""}${t(
                    /** @type {const} */ (`notes.assist.${a}`),
                  )}</button>
            `
          )}
          ${assistUndo.value !== null &&
            html`
              <button type="button" class="btn btn-small" data-testid="notes-assist-undo"
                onClick=${undoAssist}><${IconUndo} size=${14} /> ${t("notes.assist.undo")}</button>
            `}
        </div>
      </div>
      ${busy &&
        html`<p class="field-help" data-testid="notes-assist-busy">${t("notes.assist.busy")}</p>`}
      ${assistError.value &&
        html`<p class="field-help field-error" role="alert" data-testid="notes-assist-error">${
          t("notes.assist.error", { message: assistError.value })
        }</p>`}
      ${mode !== "preview" &&
        html`<${NoteToolbar} area=${() => area.current} disabled=${busy !== null} />`}
      <div class="notes-body" data-mode=${mode}>
        ${mode !== "preview" &&
          html`
            <textarea class="input notes-text" data-testid="notes-editor" ref=${area}
              aria-label=${t("notes.text")} maxlength=${NOTES_LIMITS.bodyChars}
              readonly=${busy !== null} value=${noteText.value}
              onInput=${(/** @type {Event} */ e) =>
                editNote(/** @type {HTMLTextAreaElement} */ (e.currentTarget).value)}></textarea>
          `}
        ${mode !== "edit" &&
          html`
            <div class="notes-preview" data-testid="notes-preview">
              ${noteText.value.trim()
                ? html`<${Markdown} text=${noteText.value} />`
                : html`<p class="settings-note">${t("notes.previewEmpty")}</p>`}
            </div>
          `}
      </div>
    </div>
  `;
}
