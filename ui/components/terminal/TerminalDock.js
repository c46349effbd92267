/**
 * The terminal dock: tabs (new, close — asking first while something runs —,
 * drag to reorder), the shown terminal, and the note that it is the user's own shell,
 * not sandboxed. Desktop: docked under the conversation, its height dragged at the top
 * edge. Phone: a full-screen sheet with the extra-keys row.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import {
  activeTerminal,
  closeAsk,
  closeTerminal,
  closeTerminalDock,
  moveTerminal,
  newTerminal,
  sendInput,
  termError,
  terminals,
  termSupport,
} from "../../state/terminal.js";
import { IconClose, IconPlus } from "../Icons.js";
import { IconBack } from "../settings/controls.js";
import { ExtraKeys } from "./ExtraKeys.js";
import { shown, XtermView } from "./XtermView.js";
import { dockHeight, DockResizer } from "./DockResizer.js";

/** @param {{info: import("../../../protocol/index.ts").TerminalInfo}} props */
function Tab({ info }) {
  const active = activeTerminal.value === info.id;
  const title = info.exitCode === null ? info.title : `${info.title} (${info.exitCode})`;
  return html`
    <div
      class=${`term-tab${active ? " active" : ""}`}
      role="presentation"
      data-terminal-id=${info.id}
      draggable="true"
      onDragStart=${(/** @type {DragEvent} */ e) => {
        e.dataTransfer?.setData("text/x-reinagent-terminal", info.id);
        if (e.dataTransfer) e.dataTransfer.effectAllowed = "move";
      }}
      onDragOver=${(/** @type {DragEvent} */ e) => e.preventDefault()}
      onDrop=${(/** @type {DragEvent} */ e) => {
        e.preventDefault();
        const id = e.dataTransfer?.getData("text/x-reinagent-terminal");
        if (id && id !== info.id) moveTerminal(id, info.id);
      }}
    >
      <button
        type="button"
        role="tab"
        class="term-tab-name"
        data-testid="terminal-tab"
        aria-selected=${active ? "true" : "false"}
        title=${`${info.cwd} · ${info.tty}`}
        onClick=${() => activeTerminal.value = info.id}
      >
        ${title}
      </button>
      <button
        type="button"
        class="term-tab-close"
        data-testid="terminal-tab-close"
        aria-label=${t("terminal.closeTab", { title: info.title })}
        onClick=${() => closeTerminal(info.id)}
      >
        <${IconClose} size=${14} />
      </button>
    </div>
  `;
}

function CloseAsk() {
  const ask = closeAsk.value;
  if (!ask) return null;
  return html`
    <div class="term-ask" role="alert" data-testid="terminal-close-ask">
      <span>${ask.message}. ${t("terminal.closeAnyway")}</span>
      <button
        type="button"
        class="btn btn-danger"
        data-testid="terminal-close-confirm"
        onClick=${() => closeTerminal(ask.id, true)}
      >
        ${t("terminal.closeKill")}
      </button>
      <button type="button" class="btn" onClick=${() => closeAsk.value = null}>
        ${t("task.cancel")}
      </button>
    </div>
  `;
}

async function paste() {
  try {
    const text = await navigator.clipboard.readText();
    if (text && shown.term) sendInput(shown.id, text);
  } catch {
    termError.value = t("terminal.pasteDenied");
  }
  shown.term?.focus();
}

function copy() {
  const sel = shown.term?.getSelection() ?? "";
  if (sel) navigator.clipboard?.writeText(sel).catch(() => {});
  shown.term?.focus();
}

export function TerminalDock() {
  const support = termSupport.value;
  const id = activeTerminal.value;
  /** Copy, paste and the extra keys act on a shown terminal only. */
  const live = support?.available !== false && id !== null;
  return html`
    <section
      class="term-dock"
      id="terminal-dock"
      data-testid="terminal-dock"
      aria-label=${t("terminal.title")}
      style=${`--term-h: ${dockHeight.value}px`}
    >
      <${DockResizer} />
      <div class="term-bar">
        <button
          type="button"
          class="icon-btn phone-only"
          data-testid="terminal-back"
          aria-label=${t("terminal.hide")}
          onClick=${closeTerminalDock}
        >
          <${IconBack} />
        </button>
        <div class="term-tabs" role="tablist" aria-label=${t("terminal.tabs")}>
          ${terminals.value.map((x) => html`<${Tab} key=${x.id} info=${x} />`)}
        </div>
        <button
          type="button"
          class="icon-btn"
          data-testid="terminal-new"
          aria-label=${t("terminal.new")}
          title=${t("terminal.new")}
          disabled=${support?.available === false}
          onClick=${() => newTerminal()}
        >
          <${IconPlus} size=${16} />
        </button>
        <span class="term-note" data-testid="terminal-note">${t("terminal.notSandboxed")}</span>
        ${live && html`
          <button type="button" class="btn term-tool" data-testid="terminal-copy" onClick=${copy}>
            ${t("terminal.copy")}
          </button>
          <button type="button" class="btn term-tool" data-testid="terminal-paste" onClick=${paste}>
            ${t("terminal.paste")}
          </button>
        `}
        <button
          type="button"
          class="icon-btn term-desktop"
          data-testid="terminal-hide"
          aria-label=${t("terminal.hide")}
          title=${t("terminal.hide")}
          onClick=${closeTerminalDock}
        >
          <${IconClose} size=${16} />
        </button>
      </div>
      <${CloseAsk} />
      ${termError.value && html`<p class="term-error" role="alert">${termError.value}</p>`}
      ${support?.available === false
        ? html`
          <p class="term-empty" data-testid="terminal-unavailable">
            ${t("terminal.unavailable", { reason: support.reason ?? "" })}
          </p>
        `
        : id
        ? html`<${XtermView} key=${id} id=${id} />`
        : html`<p class="term-empty">${t("terminal.none")}</p>`}
      ${live && html`<${ExtraKeys} />`}
    </section>
  `;
}
